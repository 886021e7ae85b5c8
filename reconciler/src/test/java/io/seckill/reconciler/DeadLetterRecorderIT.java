package io.seckill.reconciler;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.runtime.Delivery;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Every dead letter is filed with its reason. Request-path poison naming an order MySQL never decided
 * returns that order's reservation once and ends it REJECTED; poison naming a decided order, or from
 * elsewhere in the pipeline, gives nothing back.
 */
class DeadLetterRecorderIT {

    private static final AtomicLong DLQ_OFFSET = new AtomicLong(System.nanoTime());
    private final DeadLetterRecorder recorder = new DeadLetterRecorder(Stores.sql(), new Orders(), RelayedRows.ORDERS, Stores.SALES,
            Stores.STATUSES, Clock.systemUTC(), Stores.metrics());

    @Test
    void anUndecidableOrderReturnsItsReservationOnceAndEndsRejected() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "doomed", Instant.now().plusSeconds(600));
        Stores.STATUSES.putAll(List.of(OrderView.pending(order.orderId(), sku, "doomed", 1)));
        byte[] poison = zeroQuantity(order);

        recorder.onDeadLetters(List.of(deadLetter(Topic.ORDER_REQUESTS, poison), deadLetter(Topic.ORDER_REQUESTS, poison)));

        assertThat(Stores.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isEqualTo(2);
        assertThat(Stores.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(order.orderId()).and(DEAD_LETTERS.RELEASED.isTrue())))
                .isEqualTo(1);
        assertThat(Stores.sql().select(DEAD_LETTERS.REASON).from(DEAD_LETTERS).where(DEAD_LETTERS.ORDER_ID.eq(order.orderId()))
                .fetch(DEAD_LETTERS.REASON)).allSatisfy(reason -> assertThat(reason).contains("quantity"));
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(5, 0));
        assertThat(Stores.PROBE.heldBy(sku, "doomed")).isZero();
        assertThat(new OutboxLookups().find(Stores.sql(), order.orderId())).map(OutboxLookups.Entry::state).contains(OutboxLookups.RowState.COMPLETED);
        assertThat(Stores.STATUSES.get(order.orderId())).map(OrderView::reason).contains(RejectReason.DEAD_LETTERED);
    }

    @Test
    void poisonNamingADecidedOrderReleasesNothing() {
        long sku = Stores.openSale(5, 1);
        OrderRequested order = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        new Orders().insert(Stores.sql(), List.of(order), List.of(OrderResult.confirmed(order, Instant.now())), Duration.ofMinutes(15));

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

        recorder.onDeadLetters(List.of(deadLetter(Topic.ORDER_RESULTS, zeroQuantity(order)), deadLetter(Topic.ORDER_REQUESTS, garbage)));

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId()))).isFalse();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        assertThat(Stores.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.RECORD_VALUE.eq(garbage).and(DEAD_LETTERS.ORDER_ID.isNull()))).isTrue();
        assertThat(Stores.STATUSES.get(order.orderId())).isEmpty();
    }

    @Test
    void aDeadLetterTheDatabaseRefusesAsReceivedIsStillFiledAndTheNextOneToo() {
        byte[] refused = "refused as received".getBytes(StandardCharsets.UTF_8);
        byte[] next = "next".getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<String, byte[]> unfileable = new ConsumerRecord<>(Topic.DEAD_LETTERS.topicName(), 0, DLQ_OFFSET.incrementAndGet(),
                "key", refused);
        DeadLetterHeaders.describe(unfileable.headers(), "unfileable-stage", new InvalidEventException("odd"), Topic.ORDER_RESULTS.topicName(), 0, 7);
        Stores.sql().execute("CREATE TRIGGER refuse_unfileable BEFORE INSERT ON dead_letters FOR EACH ROW "
                + "BEGIN IF NEW.failed_stage = 'unfileable-stage' THEN "
                + "SIGNAL SQLSTATE '22007' SET MESSAGE_TEXT = 'Incorrect string value for column failed_stage'; END IF; END");
        try {
            recorder.onDeadLetters(List.of(new Delivery<>(refused, unfileable), deadLetter(Topic.ORDER_REQUESTS, next)));
        } finally {
            Stores.sql().execute("DROP TRIGGER refuse_unfileable");
        }

        assertThat(Stores.sql().fetchValue(DEAD_LETTERS.REASON, DEAD_LETTERS.RECORD_VALUE.eq(refused)))
                .contains("could not be filed as received").contains("Incorrect string value");
        assertThat(Stores.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.RECORD_VALUE.eq(next))).isTrue();
    }

    /** A record as it sits on the dead-letter topic: the failed bytes, with the reason and origin in headers. */
    private static Delivery<byte[]> deadLetter(Topic<?> source, byte[] value) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(Topic.DEAD_LETTERS.topicName(), 0, DLQ_OFFSET.incrementAndGet(), "key", value);
        DeadLetterHeaders.describe(record.headers(), "test", new InvalidEventException("quantity must be positive, was 0"),
                source.topicName(), 0, 42);
        return new Delivery<>(value, record);
    }

    private static byte[] zeroQuantity(OrderRequested order) {
        return EventJson.encodeToString(order).replace("\"quantity\":1", "\"quantity\":0").getBytes(StandardCharsets.UTF_8);
    }
}
