package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.HttpApi;
import io.seckill.runtime.Concurrently;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A sale of its own SKU (one unit per buyer) on an ingress, and buyers who each buy one unit of it, concurrently. */
final class SaleFixture {

    private static final AtomicInteger NEXT_SKU = new AtomicInteger();

    private final HttpApi http;
    private final long sku;
    private final String buyerPrefix;
    private final AtomicInteger buyers;

    private SaleFixture(HttpApi http, long sku, String buyerPrefix, AtomicInteger buyers) {
        this.http = http;
        this.sku = sku;
        this.buyerPrefix = buyerPrefix;
        this.buyers = buyers;
    }

    static SaleFixture open(HttpApi http, int stock, String buyerPrefix) {
        long sku = System.currentTimeMillis() % 1_000_000 * 100 + NEXT_SKU.incrementAndGet();
        assertThat(http.openSale(sku, stock, 1).status()).isEqualTo(201);
        return new SaleFixture(http, sku, buyerPrefix, new AtomicInteger());
    }

    /** The same sale and buyers through another ingress (another process, or the same one restarted). */
    SaleFixture through(HttpApi other) {
        return new SaleFixture(other, sku, buyerPrefix, buyers);
    }

    long sku() {
        return sku;
    }

    String orderStatus(Bought order) {
        return http.orderStatus(order.userId(), order.orderId());
    }

    /** {@code count} new buyers at once. @return each accepted order, null where a buy was refused */
    List<Bought> buy(int count) throws Exception {
        return Concurrently.run(count, () -> {
            String userId = buyerPrefix + "-" + buyers.incrementAndGet();
            HttpApi.Reply reply = http.buy(sku, userId, 1);
            return reply.status() == 202 ? new Bought(userId, reply.orderId()) : null;
        });
    }

    /** {@code count} new buyers at once. @return the HTTP status each was answered */
    List<Integer> statuses(int count) throws Exception {
        return Concurrently.run(count, () -> http.buy(sku, buyerPrefix + "-" + buyers.incrementAndGet(), 1).status());
    }

    /** The admin's figures of the SKU, as numbers by name. */
    Map<String, Long> figures() {
        return http.figureValues(sku);
    }

    int confirmedQuantity() {
        return http.figures(sku).json().path("confirmedQuantity").asInt();
    }

    /** What "the stores agree, nothing pending" reads like with {@code sold} of {@code stock} units confirmed. */
    static Map<String, Long> settled(int stock, int sold) {
        return Map.of("mysqlStock", (long) stock - sold, "redisStock", (long) stock - sold, "pendingReservations", 0L,
                "confirmedQuantity", (long) sold);
    }

    record Bought(String userId, String orderId) {
    }
}
