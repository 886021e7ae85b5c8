package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * P3/P4 through the dead-letter path: an order whose record is poison can never be decided, so its
 * reservation comes back once and the buyer sees REJECTED; poison naming an order MySQL already
 * decided gives nothing back.
 */
class DeadLetteredOrderTest {

    private final Pipeline pipeline = Pipeline.get();
    private final OrderStatusStore statuses = new OrderStatusStore(new LuaRunner(pipeline.redis), Duration.ofHours(1));

    @Test
    void anUndecidableOrderReturnsItsReservationOnceAndEndsRejected() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String orderId = UUID.randomUUID().toString();
        // As the ingress would leave it: reserved, PENDING, in the outbox; but its record breaks the contract.
        assertThat(pipeline.saleStore.reserve(sku, orderId, "doomed", 1, Instant.now().toEpochMilli()).code()).isEqualTo("RESERVED");
        statuses.putAll(List.of(new OrderView(orderId, sku, "doomed", 1, "PENDING", null)));
        byte[] poison = zeroQuantity(OrderRequested.of(orderId, sku, "doomed", 1, Instant.now()));
        pipeline.sql().insertInto(OUTBOX, OUTBOX.ID, OUTBOX.AGGREGATETYPE, OUTBOX.AGGREGATEID, OUTBOX.TYPE, OUTBOX.PAYLOAD, OUTBOX.RELAY_AFTER)
                .values(orderId, "order", Long.toString(sku), "OrderRequested", new String(poison, StandardCharsets.UTF_8),
                        LocalDateTime.now().plusHours(1)).execute();
        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafkaBootstrap())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);
        }

        await().atMost(Duration.ofSeconds(60)).until(() ->
                pipeline.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId)) == 2);
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(5);
        assertThat(pipeline.saleStore.state(sku).pending()).isZero();
        assertThat(pipeline.saleStore.heldBy(sku, "doomed")).isZero();
        assertThat(pipeline.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId).and(DEAD_LETTERS.RELEASED.isTrue()))).isEqualTo(1);
        assertThat(pipeline.sql().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(orderId))).isNotNull();
        HttpApi.Reply status = pipeline.http.order("doomed", orderId);
        assertThat(status.json().path("status").asText()).isEqualTo("REJECTED");
        assertThat(status.json().path("reason").asText()).isEqualTo(OrderView.DEAD_LETTERED);
    }

    @Test
    void poisonNamingADecidedOrderReleasesNothing() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String orderId = pipeline.http.buy(sku, "kept", 1).orderId();
        await().atMost(Duration.ofSeconds(60)).until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("kept", orderId)));

        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafkaBootstrap())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku),
                    zeroQuantity(OrderRequested.of(orderId, sku, "kept", 1, Instant.now())));
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.eq(orderId)));
        assertThat(pipeline.sql().fetchValue(DEAD_LETTERS.RELEASED, DEAD_LETTERS.ORDER_ID.eq(orderId))).isFalse();
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
        assertThat(pipeline.saleStore.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(pipeline.http.orderStatus("kept", orderId)).isEqualTo("CONFIRMED");
    }

    private static byte[] zeroQuantity(OrderRequested order) {
        return EventJson.encodeToString(order).replace("\"quantity\":1", "\"quantity\":0").getBytes(StandardCharsets.UTF_8);
    }
}
