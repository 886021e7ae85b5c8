package io.seckill.reconciler.settle;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.mysqlstate.DeadLetteredOrders;
import io.seckill.mysqlstate.DeadLetters;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.reconciler.Stores;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.junit.jupiter.api.Test;

/**
 * Every dead letter is filed with its reason. Request-path poison naming an order MySQL never decided
 * returns that order's reservation once and ends it REJECTED; poison naming a decided order, or from
 * elsewhere in the pipeline, gives nothing back.
 */
class DeadLetterRecorderIT {

    private static final AtomicLong DLQ_OFFSET = new AtomicLong(System.nanoTime());
    private final DeadLetterRecorder recorder = new DeadLetterRecorder(
            Stores.sql(),
            new DeadLetters(),
            new DeadLetteredOrders(),
            Stores.SALES,
            Stores.STATUSES,
            Clock.systemUTC(),
            Stores.metrics());

    @Test
    void anUndecidableOrderReturnsItsReservationOnceAndEndsRejected() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "doomed", Instant.now().plusSeconds(600));
        Stores.STATUSES.putAll(List.of(OrderView.pending(new OrderFacts(order.orderId(), sku, "doomed", 1))));
        byte[] poison = poisonedAtItsSource(order);

        recorder.onDeadLetters(
                List.of(deadLetter(Topic.ORDER_REQUESTS, poison), deadLetter(Topic.ORDER_REQUESTS, poison)));

        assertThat(Stores.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isEqualTo(2);
        assertThat(Stores.sql()
                        .fetchCount(
                                DEAD_LETTERS,
                                DEAD_LETTERS.ORDER_ID.eq(order.orderId()).and(DEAD_LETTERS.RELEASED.isTrue())))
                .isEqualTo(1);
        assertThat(Stores.sql()
                        .select(DEAD_LETTERS.REASON)
                        .from(DEAD_LETTERS)
                        .where(DEAD_LETTERS.ORDER_ID.eq(order.orderId()))
                        .fetch(DEAD_LETTERS.REASON))
                .allSatisfy(reason -> assertThat(reason).contains("quantity"));
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(5, 0));
        assertThat(Stores.PROBE.heldBy(sku, "doomed")).isZero();
        assertThat(new OutboxLookups().find(Stores.sql(), order.orderId()))
                .map(OutboxLookups.Entry::state)
                .contains(OutboxLookups.RowState.COMPLETED);
        assertThat(Stores.STATUSES.get(order.orderId())).map(OrderView::reason).contains(RejectReason.DEAD_LETTERED);
    }

    @Test
    void poisonNamingADecidedOrderReleasesNothing() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        new Orders()
                .insert(
                        Stores.sql(),
                        List.of(order),
                        List.of(OrderResult.confirmed(order, Instant.now())),
                        Duration.ofMinutes(15));

        recorder.onDeadLetters(List.of(deadLetter(Topic.ORDER_REQUESTS, zeroQuantity(order))));

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isFalse();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
    }

    @Test
    void poisonFromAfterTheDecisionReleasesNothingAndUnreadableBytesAreFiledToo() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "later", Instant.now().plusSeconds(600));
        byte[] garbage = ("\u0000 not json " + sku).getBytes(StandardCharsets.ISO_8859_1);

        recorder.onDeadLetters(List.of(
                deadLetter(Topic.ORDER_RESULTS, zeroQuantity(order)), deadLetter(Topic.ORDER_REQUESTS, garbage)));

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isFalse();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        assertThat(Stores.sql()
                        .fetchExists(
                                DEAD_LETTERS,
                                DEAD_LETTERS.RECORD_VALUE.eq(garbage).and(DEAD_LETTERS.ORDER_ID.isNull())))
                .isTrue();
        assertThat(Stores.STATUSES.get(order.orderId())).isEmpty();
    }

    /**
     * A flood of dead letters that change nothing (whoever may write the topic can send them) files a minute's sample
     * and counts the rest; one that returns a reservation beside them is filed and does its work whatever the flood.
     */
    @Test
    void aFloodOfDeadLettersThatChangeNothingFilesAMinutesSampleWhileOneThatReleasesIsFiled() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeadLetterRecorder flooded = new DeadLetterRecorder(
                Stores.sql(),
                new DeadLetters(),
                new DeadLetteredOrders(),
                Stores.SALES,
                Stores.STATUSES,
                Clock.systemUTC(),
                new ReconcilerMetrics(meters, Clock.systemUTC()));
        String marker = "forged-flood-" + System.nanoTime();
        List<Delivery<byte[]>> flood = new ArrayList<>();
        for (int i = 0; i < 3 * DeadLetterRecorder.INERT_FILED_PER_MINUTE; i++) {
            flood.add(deadLetter(Topic.ORDER_RESULTS, (marker + " " + i).getBytes(StandardCharsets.UTF_8)));
        }
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "amid-the-flood", Instant.now().plusSeconds(600));
        flood.add(deadLetter(Topic.ORDER_REQUESTS, poisonedAtItsSource(order)));

        flooded.onDeadLetters(flood);

        long filed = Stores.sql()
                .fetchCount(
                        DEAD_LETTERS,
                        DSL.field("CAST({0} AS CHAR)", String.class, DEAD_LETTERS.RECORD_VALUE)
                                .startsWith(marker));
        assertThat(filed).isEqualTo(DeadLetterRecorder.INERT_FILED_PER_MINUTE);
        assertThat(meters.counter("seckill.dead.letters.unfiled").count())
                .isEqualTo(2 * DeadLetterRecorder.INERT_FILED_PER_MINUTE);
        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isTrue();
        assertThat(Stores.PROBE.heldBy(sku, "amid-the-flood")).isZero();
    }

    /** Headers are what the writer chose: forged stages and failures cannot make meters without end. */
    @Test
    void forgedStagesAndFailuresMakeABoundedSetOfMeters() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeadLetterRecorder recorder = new DeadLetterRecorder(
                Stores.sql(),
                new DeadLetters(),
                new DeadLetteredOrders(),
                Stores.SALES,
                Stores.STATUSES,
                Clock.systemUTC(),
                new ReconcilerMetrics(meters, Clock.systemUTC()));
        List<Delivery<byte[]>> forged = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] value = ("forged header " + i).getBytes(StandardCharsets.UTF_8);
            ConsumerRecord<String, byte[]> record =
                    new ConsumerRecord<>(Topic.DEAD_LETTERS.topicName(), 0, DLQ_OFFSET.incrementAndGet(), "key", value);
            DeadLetterHeaders.describe(
                    record.headers(),
                    "stage-" + i,
                    new InvalidEventException("forged"),
                    Topic.ORDER_RESULTS.topicName(),
                    0,
                    i);
            record.headers().remove(DeadLetterHeaders.EXCEPTION);
            record.headers()
                    .add(DeadLetterHeaders.EXCEPTION, ("com.example.Forged" + i).getBytes(StandardCharsets.UTF_8));
            forged.add(new Delivery<>(value, record));
        }

        recorder.onDeadLetters(forged);

        assertThat(meters.find("seckill.dead.letters").counters())
                .hasSizeLessThanOrEqualTo(ReconcilerMetrics.FAILURE_TAGS + 1)
                .allSatisfy(
                        counter -> assertThat(counter.getId().getTag("stage")).isEqualTo(ReconcilerMetrics.OTHER));
    }

    @Test
    void aDeadLetterTheDatabaseRefusesAsReceivedIsStillFiledAndTheNextOneToo() {
        byte[] refused = "refused as received".getBytes(StandardCharsets.UTF_8);
        byte[] next = "next".getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<String, byte[]> unfileable =
                new ConsumerRecord<>(Topic.DEAD_LETTERS.topicName(), 0, DLQ_OFFSET.incrementAndGet(), "key", refused);
        DeadLetterHeaders.describe(
                unfileable.headers(),
                "unfileable-stage",
                new InvalidEventException("odd"),
                Topic.ORDER_RESULTS.topicName(),
                0,
                7);
        Stores.owner()
                .execute("CREATE TRIGGER refuse_unfileable BEFORE INSERT ON dead_letters FOR EACH ROW BEGIN IF"
                        + " NEW.failed_stage = 'unfileable-stage' THEN SIGNAL SQLSTATE '22007' SET MESSAGE_TEXT ="
                        + " 'Incorrect string value for column failed_stage'; END IF; END");
        try {
            recorder.onDeadLetters(
                    List.of(new Delivery<>(refused, unfileable), deadLetter(Topic.ORDER_REQUESTS, next)));
        } finally {
            Stores.owner().execute("DROP TRIGGER refuse_unfileable");
        }

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.REASON, DEAD_LETTERS.RECORD_VALUE.eq(refused)))
                .contains("could not be filed as received").contains("Incorrect string value");
        assertThat(Stores.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.RECORD_VALUE.eq(next))).isTrue();
    }

    /**
     * The sink decides the order (a relayed copy reached it) while the recorder is looking at the poison: whichever
     * commits first decides, and the reservation follows that decision. The sink's commit is started right after the
     * recorder's first statement and given two seconds: it lands in between unless the recorder holds the order's row.
     */
    @Test
    void aDecisionTheSinkCommitsMeanwhileIsNeverUndoneInRedis() throws Exception {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "raced", Instant.now().plusSeconds(600));
        poisonedAtItsSource(order);
        ExecutorService sink = Executors.newSingleThreadExecutor();
        AtomicReference<Future<?>> sinkCommit = new AtomicReference<>();
        ExecuteListener sinkDecidesAfterTheFirstStatement = ExecuteListener.onExecuteEnd(context -> {
            if (sinkCommit.get() == null) {
                sinkCommit.set(sink.submit(() -> Stores.sql().transaction(configuration -> {
                    DSLContext tx = DSL.using(configuration);
                    new Orders()
                            .insert(
                                    tx,
                                    List.of(order),
                                    List.of(OrderResult.confirmed(order, Instant.now())),
                                    Duration.ofMinutes(15));
                    new Outbox().complete(tx, List.of(order.orderId()), Instant.now());
                })));
                try {
                    sinkCommit.get().get(2, TimeUnit.SECONDS);
                } catch (TimeoutException heldBack) {
                    // the recorder holds the order's row: the sink commits after it, or fails on the decision it made
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        DeadLetterRecorder racing = new DeadLetterRecorder(
                DSL.using(Stores.sql()
                        .configuration()
                        .derive(new DefaultExecuteListenerProvider(sinkDecidesAfterTheFirstStatement))),
                new DeadLetters(),
                new DeadLetteredOrders(),
                Stores.SALES,
                Stores.STATUSES,
                Clock.systemUTC(),
                Stores.metrics());
        try {
            Delivery<byte[]> poison = deadLetter(Topic.ORDER_REQUESTS, zeroQuantity(order));
            try {
                racing.onDeadLetters(List.of(poison));
            } catch (DataAccessException deadlockVictim) {
                // Each waits for the other's lock; the database ends one, and the consumer loop runs the batch again.
                racing.onDeadLetters(List.of(poison));
            }
            try {
                sinkCommit.get().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException refusedAsDecided) {
                // the order was decided first by the recorder: the sink's duplicate insert fails, as the real sink's
                // would
            }
        } finally {
            sink.shutdownNow();
        }

        OrderResult decision = new Orders().decided(Stores.sql(), List.of(order.orderId())).get(order.orderId());
        assertThat(decision).as("decided once, by one of them").isNotNull();
        long held = Stores.PROBE.heldBy(sku, "raced");
        if (decision.status() == OrderStatus.CONFIRMED) {
            assertThat(held).as("sold: its unit stays sold").isEqualTo(1);
            assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        } else {
            assertThat(decision.reason()).isEqualTo(RejectReason.DEAD_LETTERED);
            assertThat(held).isZero();
            assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(5, 0));
        }
    }

    /**
     * A dead letter written by someone who may write the topic, naming a real order that is open and sound (its outbox
     * row a valid request): it proves nothing. It is filed and counted; the order is not rejected, its units stay
     * reserved.
     */
    @Test
    void aDeadLetterNamingAnOrderWhoseRowIsSoundRejectsNothing() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "sound", Instant.now().plusSeconds(600));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeadLetterRecorder recorder = new DeadLetterRecorder(
                Stores.sql(),
                new DeadLetters(),
                new DeadLetteredOrders(),
                Stores.SALES,
                Stores.STATUSES,
                Clock.systemUTC(),
                new ReconcilerMetrics(meters, Clock.systemUTC()));

        recorder.onDeadLetters(List.of(
                deadLetter(Topic.ORDERS_UNIQUE, EventJson.encodeToString(order).getBytes(StandardCharsets.UTF_8))));

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isFalse();
        assertThat(new OutboxLookups().find(Stores.sql(), order.orderId()))
                .map(OutboxLookups.Entry::state)
                .contains(OutboxLookups.RowState.OPEN);
        assertThat(new Orders().exists(Stores.sql(), order.orderId())).isFalse();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        assertThat(meters.get("seckill.records.refused")
                        .tag("reason", UnsupportedRecords.Reason.OUTBOX_ROW_IS_SOUND.name())
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    /**
     * The order's own outbox row carries the poison (as an ingress bug would write it): no copy can ever be decided.
     */
    private static byte[] poisonedAtItsSource(OrderRequested order) {
        byte[] poison = zeroQuantity(order);
        // Staged as the schema's owner: no service's account may rewrite an outbox row's payload.
        Stores.owner()
                .update(OUTBOX)
                .set(OUTBOX.PAYLOAD, new String(poison, StandardCharsets.UTF_8))
                .where(OUTBOX.ID.eq(order.orderId()))
                .execute();
        return poison;
    }

    /** A record as it sits on the dead-letter topic: the failed bytes, with the reason and origin in headers. */
    private static Delivery<byte[]> deadLetter(Topic<?> source, byte[] value) {
        ConsumerRecord<String, byte[]> record =
                new ConsumerRecord<>(Topic.DEAD_LETTERS.topicName(), 0, DLQ_OFFSET.incrementAndGet(), "key", value);
        DeadLetterHeaders.describe(
                record.headers(),
                "test",
                new InvalidEventException("quantity must be positive, was 0"),
                source.topicName(),
                0,
                42);
        return new Delivery<>(value, record);
    }

    private static byte[] zeroQuantity(OrderRequested order) {
        return EventJson.encodeToString(order)
                .replace("\"quantity\":1", "\"quantity\":0")
                .getBytes(StandardCharsets.UTF_8);
    }
}
