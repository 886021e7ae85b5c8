package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.SKU;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.ingress.HttpApi.Reply;
import io.seckill.runtime.Concurrently;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Buyers racing for one SKU through every service: exactly the stock is sold, to distinct buyers within
 * their limit, and every accepted order is confirmed in MySQL with Redis settled.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class FlashSaleIT {

    private static final int STOCK = 100;
    private static final int USERS = 2_000;
    private static final int REQUESTS_PER_USER = 3;

    private final Pipeline pipeline = Pipeline.get();

    /** One SKU, stock 100, limit 1; 2,000 users each sending 3 concurrent requests. */
    @Test
    void sellsExactlyTheStockToDistinctBuyersAndConfirmsEveryAcceptedOrder() throws Exception {
        long sku = Pipeline.newSkuId();
        assertThat(pipeline.http.openSale(sku, STOCK, 1).status()).isEqualTo(201);

        List<Purchase> replies = new ArrayList<>();
        ExecutorService buyers = Executors.newFixedThreadPool(48);
        try {
            List<Future<Purchase>> pending = new ArrayList<>();
            // A user's three requests are queued side by side, so three threads run them at once.
            for (int user = 0; user < USERS; user++) {
                String userId = "fs-" + sku + "-" + user;
                for (int attempt = 0; attempt < REQUESTS_PER_USER; attempt++) {
                    pending.add(buyers.submit(() -> new Purchase(userId, pipeline.http.buy(sku, userId, 1))));
                }
            }
            for (Future<Purchase> reply : pending) {
                replies.add(reply.get());
            }
        } finally {
            buyers.shutdownNow();
        }

        List<Purchase> accepted = replies.stream().filter(purchase -> purchase.reply().status() == 202).toList();
        List<Reply> refused = replies.stream().map(Purchase::reply).filter(reply -> reply.status() != 202).toList();
        assertThat(accepted).hasSize(STOCK);
        assertThat(refused).allSatisfy(reply -> {
            assertThat(reply.status()).isEqualTo(409);
            assertThat(reply.contentType()).startsWith("application/problem+json");
            assertThat(reply.code()).isIn("SOLD_OUT", "PURCHASE_LIMIT_REACHED");
        });

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(accepted)
                        .allSatisfy(purchase -> assertThat(pipeline.http.orderStatus(
                                        purchase.userId(), purchase.reply().orderId()))
                                .isEqualTo("CONFIRMED")));

        assertThat(pipeline.sql()
                        .fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))))
                .isEqualTo(STOCK);
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isZero();
        assertThat(pipeline.sql().select(ORDERS.USER_ID).from(ORDERS).where(ORDERS.SKU_ID.eq(sku))
                .groupBy(ORDERS.USER_ID).having(DSL.count().gt(1)).fetch()).isEmpty();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(pipeline.saleStore.state(sku).stock()).isZero();
            assertThat(pipeline.saleStore.state(sku).pending()).isZero();
        });
    }

    /**
     * One SKU's 240 units split over 8 buckets, limit 1, 240 buyers asking once at the same time: every one of them
     * wins (none is told sold out while a bucket holds a unit) and is confirmed, then the next is told sold out.
     */
    @Test
    void aSaleInEightBucketsSellsEveryUnitToAsManyBuyers() throws Exception {
        long sku = Pipeline.newSkuId();
        Reply defined = pipeline.http.openSale(sku, 240, 1, 8);
        assertThat(defined.status()).isEqualTo(201);
        assertThat(defined.json().get("stockBuckets").asInt()).isEqualTo(8);

        AtomicInteger next = new AtomicInteger();
        List<Purchase> purchases = Concurrently.run(240, () -> {
            String userId = "bucketed-" + sku + "-" + next.incrementAndGet();
            return new Purchase(userId, pipeline.http.buy(sku, userId, 1));
        });

        assertThat(purchases)
                .allSatisfy(purchase -> assertThat(purchase.reply().status())
                        .as(purchase.reply().body())
                        .isEqualTo(202));
        assertThat(pipeline.http.buy(sku, "bucketed-late", 1).code()).isEqualTo("SOLD_OUT");
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(purchases)
                        .allSatisfy(purchase -> assertThat(pipeline.http.orderStatus(
                                        purchase.userId(), purchase.reply().orderId()))
                                .isEqualTo("CONFIRMED")));
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isZero();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode figures = pipeline.http.figures(sku).json();
            assertThat(figures.get("stockBuckets").asInt()).isEqualTo(8);
            assertThat(figures.get("mysqlStock").asInt()).isZero();
            assertThat(figures.get("redisStock").asInt()).isZero();
            assertThat(figures.get("pendingReservations").asInt()).isZero();
            assertThat(figures.get("confirmedQuantity").asInt()).isEqualTo(240);
        });
    }

    /** Per-user limit 2, ten concurrent requests of one unit: exactly two units, in Redis and in MySQL. */
    @Test
    void tenConcurrentBuysOfOneUnitEndWithExactlyTheLimit() throws Exception {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 100, 2);

        List<Reply> replies = Concurrently.run(10, () -> pipeline.http.buy(sku, "eager", 1));

        assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(2);
        assertThat(replies.stream().filter(reply -> reply.status() != 202))
                .hasSize(8).allSatisfy(reply -> assertThat(reply.code()).isEqualTo("PURCHASE_LIMIT_REACHED"));
        assertThat(pipeline.probe.heldBy(sku, "eager")).isEqualTo(2);
        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.sql().fetchOptional(USER_PURCHASES,
                USER_PURCHASES.SKU_ID.eq(sku).and(USER_PURCHASES.USER_ID.eq("eager")))
                .map(row -> row.getQuantity() == 2).orElse(false));
    }

    private record Purchase(String userId, Reply reply) {
    }
}
