package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.runtime.KafkaProbe;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records written as an outsider would, through the running pipeline: with a service's stolen credentials, each
 * principal writes only what that service may, and what it may write is still checked against MySQL. Nothing is
 * confirmed, returned or rejected that the outbox and the orders table do not support, and the counts show each
 * refusal.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class ForgedRecordsIT {

    private final Pipeline pipeline = Pipeline.get();

    /**
     * The ingress's credentials may write order requests: one in another buyer's name, never recorded, buys nothing.
     */
    @Test
    void anOrderRequestWithNoOutboxRowBehindItIsNeverConfirmed() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        OrderRequested forged = OrderRequested.of(UUID.randomUUID().toString(), sku, "victim", 1, Instant.now());
        double before = refused(Topic.ORDERS_UNIQUE, UnsupportedRecords.Reason.NO_OUTBOX_ROW);

        try (KafkaProbe stolen = new KafkaProbe(as(KafkaPrincipal.INGRESS))) {
            stolen.send(
                    Topic.ORDER_REQUESTS.topicName(),
                    Long.toString(sku),
                    EventJson.encodeToString(forged).getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> refused(Topic.ORDERS_UNIQUE, UnsupportedRecords.Reason.NO_OUTBOX_ROW) > before);
        }

        assertThat(pipeline.sql().fetchExists(ORDERS, ORDERS.ORDER_ID.eq(forged.orderId()))).isFalse();
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isEqualTo(5);
        try (KafkaProbe operator = new KafkaProbe(pipeline.infra.kafka())) {
            List<ConsumerRecord<byte[], byte[]>> dead = deadLettersOf(operator, forged.orderId());
            assertThat(dead).hasSize(1);
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.REASON))
                    .startsWith("NO_OUTBOX_ROW");
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.STAGE)).isEqualTo("db-sink");
        }
    }

    /**
     * Trusted principals writing well-formed lies about a confirmed order: the reconciler's a cancellation, the sink's
     * a rejection and its compensation. Its unit stays sold in both stores and the order stays confirmed.
     */
    @Test
    void aCancellationOrARejectionMySqlNeverMadeGivesNoUnitBack() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String orderId = pipeline.http.buy(sku, "kept", 1).orderId();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("kept", orderId)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> pipeline.saleStore.state(sku).equals(new RedisSkuState(4, 0)));
        OrderRequested order = OrderRequested.of(orderId, sku, "kept", 1, Instant.now());
        double before = refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW);

        OrderLifecycleEvent cancelled =
                new OrderCancelled(OrderLifecycleEvent.CURRENT_VERSION, orderId, sku, "kept", 1, Instant.now());
        OrderResult rejected = OrderResult.rejected(order, RejectReason.SOLD_OUT, Instant.now());
        try (KafkaProbe reconciler = new KafkaProbe(as(KafkaPrincipal.RECONCILER));
             KafkaProbe sink = new KafkaProbe(as(KafkaPrincipal.DB_SINK))) {
            reconciler.send(Topic.ORDER_LIFECYCLE.topicName(), orderId, Topic.ORDER_LIFECYCLE.encode(cancelled));
            sink.send(Topic.ORDER_RESULTS.topicName(), Long.toString(sku), Topic.ORDER_RESULTS.encode(rejected));
            sink.send(Topic.STOCK_COMPENSATIONS.topicName(), Long.toString(sku),
                    Topic.STOCK_COMPENSATIONS.encode(StockCompensation.forRejected(rejected)));
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                                + refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                                + refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                        >= before + 3);
        assertThat(pipeline.saleStore.state(sku)).isEqualTo(new RedisSkuState(4, 0));
        assertThat(pipeline.probe.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isEqualTo(4);
        assertThat(pipeline.http.orderStatus("kept", orderId)).isEqualTo("CONFIRMED");
    }

    /**
     * A dead letter naming an order that is recorded and undecided, written with the stream-processor's credentials:
     * its outbox row is sound, so nothing shows the order cannot be decided. It is filed, not acted on: the order stays
     * open, its unit reserved.
     */
    @Test
    void aDeadLetterNamingASoundOrderRejectsNothing() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, "pending", 1, Instant.now());
        // As the ingress would leave it, its publish not yet made (the relay is an hour away).
        assertThat(pipeline.saleStore
                        .reserve(
                                sku,
                                order.orderId(),
                                "pending",
                                1,
                                Instant.now().toEpochMilli(),
                                false)
                        .reservation())
                .isEqualTo(Reservation.RESERVED);
        new Outbox()
                .insert(
                        pipeline.sql(),
                        List.of(Outbox.NewRow.of(
                                order,
                                EventJson.encodeToString(order),
                                null,
                                Duration.ofHours(1),
                                TraceParent.start())));
        RecordHeaders headers = new RecordHeaders();
        DeadLetterHeaders.describe(
                headers, "db-sink", new InvalidEventException("made up"), Topic.ORDERS_UNIQUE.topicName(), 0, 0);

        try (KafkaProbe stolen = new KafkaProbe(as(KafkaPrincipal.STREAM_PROCESSOR))) {
            stolen.send(
                    Topic.DEAD_LETTERS.topicName(),
                    Long.toString(sku),
                    EventJson.encodeToString(order).getBytes(StandardCharsets.UTF_8),
                    headers);
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> pipeline.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(order.orderId())));
        assertThat(pipeline.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(order.orderId())))
                .isFalse();
        assertThat(pipeline.sql().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(order.orderId()))).isNull();
        assertThat(pipeline.sql().fetchExists(ORDERS, ORDERS.ORDER_ID.eq(order.orderId()))).isFalse();
        assertThat(pipeline.saleStore.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        assertThat(refused(Topic.DEAD_LETTERS, UnsupportedRecords.Reason.OUTBOX_ROW_IS_SOUND)).isPositive();
    }

    private static KafkaAccess as(KafkaPrincipal principal) {
        return LocalInfrastructure.get().addressesFor(principal).kafka();
    }

    private double refused(Topic<?> topic, UnsupportedRecords.Reason reason) {
        return pipeline
                .host
                .host()
                .meters()
                .find("seckill.records.refused")
                .tag("topic", topic.topicName())
                .tag("reason", reason.name())
                .counters()
                .stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    private static List<ConsumerRecord<byte[], byte[]>> deadLettersOf(KafkaProbe kafka, String orderId) {
        return kafka.readAll(Topic.DEAD_LETTERS.topicName()).stream()
                .filter(record -> new String(record.value(), StandardCharsets.UTF_8).contains(orderId))
                .toList();
    }
}
