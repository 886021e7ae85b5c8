package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi.Reply;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MySQL holds less than Redis (simulated drift). The excess orders end REJECTED, and
 * their stock and buyers' slots return to Redis exactly once, even when compensation comes twice.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class CompensationIT {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void rejectedOrdersReturnTheirStockAndSlotsExactlyOnce() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 10, 1);
        new Skus().charge(pipeline.sql(), sku, 4, Instant.now());

        List<String> orderIds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Reply reply = pipeline.http.buy(sku, "comp-" + i, 1);
            assertThat(reply.status()).isEqualTo(202);
            orderIds.add(reply.orderId());
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                pipeline.sql().fetchCount(ORDERS, ORDERS.ORDER_ID.in(orderIds)) == orderIds.size());
        List<OrdersRecord> rejected = pipeline.sql().selectFrom(ORDERS)
                .where(ORDERS.SKU_ID.eq(sku)).and(ORDERS.STATUS.eq(OrderStatus.REJECTED)).fetch();
        assertThat(rejected)
                .hasSize(4)
                .allSatisfy(order -> assertThat(order.getReason()).isEqualTo(RejectReason.SOLD_OUT));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(rejected).allSatisfy(order ->
                assertThat(pipeline.http.orderStatus(order.getUserId(), order.getOrderId())).isEqualTo("REJECTED")));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
            assertThat(pipeline.saleStore.state(sku).pending()).isZero();
        });
        assertSlots(sku, rejected);

        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafka())) {
            for (OrdersRecord order : rejected) {
                kafka.send(
                        Topic.STOCK_COMPENSATIONS.topicName(),
                        Long.toString(sku),
                        EventJson.encode(compensationFor(order)));
            }
            // A marker after the duplicates, in the same partition: once it is released, they were seen.
            String marker = UUID.randomUUID().toString();
            assertThat(pipeline.saleStore
                            .reserve(sku, marker, "marker", 1, Instant.now().toEpochMilli(), false)
                            .reservation())
                    .isEqualTo(Reservation.RESERVED);
            OrderRequested markerOrder = OrderRequested.of(marker, sku, "marker", 1, Instant.now());
            kafka.send(
                    Topic.STOCK_COMPENSATIONS.topicName(),
                    Long.toString(sku),
                    EventJson.encode(StockCompensation.forRejected(
                            OrderResult.rejected(markerOrder, RejectReason.SOLD_OUT, Instant.now()))));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> pipeline.saleStore.state(sku).pending() == 0);

        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
        assertSlots(sku, rejected);
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isZero();
        // The drift simulated at the start is what the figures report: Redis would sell 4 units MySQL lacks.
        Reply figures = pipeline.http.figures(sku);
        assertThat(figures.json().path("mysqlStock").asLong()).isZero();
        assertThat(figures.json().path("redisStock").asLong()).isEqualTo(4);
        assertThat(figures.json().path("confirmedQuantity").asLong()).isEqualTo(6);
    }

    private void assertSlots(long sku, List<OrdersRecord> rejected) {
        List<String> rejectedUsers = rejected.stream().map(OrdersRecord::getUserId).toList();
        for (int i = 0; i < 10; i++) {
            String user = "comp-" + i;
            assertThat(pipeline.probe.heldBy(sku, user)).as(user).isEqualTo(rejectedUsers.contains(user) ? 0 : 1);
        }
    }

    private static StockCompensation compensationFor(OrdersRecord order) {
        OrderRequested requested = OrderRequested.of(
                order.getOrderId(), order.getSkuId(), order.getUserId(), order.getQuantity(), Instant.now());
        return StockCompensation.forRejected(OrderResult.rejected(requested, RejectReason.SOLD_OUT, Instant.now()));
    }
}
