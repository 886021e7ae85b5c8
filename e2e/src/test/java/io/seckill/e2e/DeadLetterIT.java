package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi.Reply;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Poison through every service: undecodable bytes land on the DLQ with the reason and the records after
 * them still flow; an order whose record is poison can never be decided, so its reservation comes back
 * once and the buyer sees REJECTED; poison naming an order MySQL already decided gives nothing back.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class DeadLetterIT {

    private final Pipeline pipeline = Pipeline.get();
    private final OrderStatusStore statuses = new OrderStatusStore(new LuaRunner(pipeline.redis), Duration.ofHours(1));

    @Test
    void undecodableBytesAreDeadLetteredAndTheNextOrderStillConfirms() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        byte[] poison = ("\u0000\u00ffnot an order " + sku).getBytes(StandardCharsets.ISO_8859_1);
        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafka())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);

            String next = pipeline.http.buy(sku, "after-poison", 1).orderId();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("after-poison", next)));

            List<ConsumerRecord<byte[], byte[]>> dead = kafka.readAll(Topic.DEAD_LETTERS.topicName()).stream()
                    .filter(record -> Arrays.equals(record.value(), poison)).toList();
            assertThat(dead).hasSize(1);
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.REASON))
                    .contains("undecodable OrderRequested");
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.SOURCE_TOPIC))
                    .isEqualTo(Topic.ORDER_REQUESTS.topicName());
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.STAGE))
                    .isEqualTo("stream-processor");
        }
        await().atMost(Duration.ofSeconds(30)).until(() ->
                pipeline.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.RECORD_VALUE.eq(poison)));
        assertThat(pipeline.sql().fetchValue(DEAD_LETTERS.REASON, DEAD_LETTERS.RECORD_VALUE.eq(poison)))
                .contains("undecodable");
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isEqualTo(4);
        await().atMost(Duration.ofSeconds(30)).until(() -> pipeline.saleStore.state(sku).pending() == 0);
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
    }

    @Test
    void anUndecidableOrderReturnsItsReservationOnceAndEndsRejected() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String orderId = UUID.randomUUID().toString();
        // As the ingress would leave it: reserved, PENDING, in the outbox; but its record breaks the contract.
        assertThat(pipeline.saleStore
                        .reserve(sku, orderId, "doomed", 1, Instant.now().toEpochMilli(), false)
                        .reservation())
                .isEqualTo(Reservation.RESERVED);
        statuses.putAll(List.of(OrderView.pending(new OrderFacts(orderId, sku, "doomed", 1))));
        byte[] poison = zeroQuantity(OrderRequested.of(orderId, sku, "doomed", 1, Instant.now()));
        new Outbox()
                .insert(
                        pipeline.sql(),
                        List.of(new Outbox.NewRow(
                                new OrderFacts(orderId, sku, "doomed", 1),
                                new String(poison, StandardCharsets.UTF_8),
                                null,
                                Instant.now().plusSeconds(3600),
                                TraceParent.start().toString())));
        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafka())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);
        }

        await().atMost(Duration.ofSeconds(60)).until(() ->
                pipeline.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId)) == 2);
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(5);
        assertThat(pipeline.saleStore.state(sku).pending()).isZero();
        assertThat(pipeline.probe.heldBy(sku, "doomed")).isZero();
        assertThat(pipeline.sql()
                        .fetchCount(
                                DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId).and(DEAD_LETTERS.RELEASED.isTrue())))
                .isEqualTo(1);
        assertThat(pipeline.sql().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(orderId))).isNotNull();
        Reply status = pipeline.http.order("doomed", orderId);
        assertThat(status.json().path("status").asText()).isEqualTo("REJECTED");
        assertThat(status.json().path("reason").asText()).isEqualTo(RejectReason.DEAD_LETTERED.name());
    }

    @Test
    void poisonNamingADecidedOrderReleasesNothing() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String orderId = pipeline.http.buy(sku, "kept", 1).orderId();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("kept", orderId)));

        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafka())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku),
                    zeroQuantity(OrderRequested.of(orderId, sku, "kept", 1, Instant.now())));
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> pipeline.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId)));
        assertThat(pipeline.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(orderId))).isFalse();
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
        assertThat(pipeline.probe.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(pipeline.http.orderStatus("kept", orderId)).isEqualTo("CONFIRMED");
    }

    private static byte[] zeroQuantity(OrderRequested order) {
        return EventJson.encodeToString(order)
                .replace("\"quantity\":1", "\"quantity\":0")
                .getBytes(StandardCharsets.UTF_8);
    }
}
