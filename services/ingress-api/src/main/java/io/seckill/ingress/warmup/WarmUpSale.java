package io.seckill.ingress.warmup;

import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;

/**
 * The hidden sale the warm-up buys from: two SKUs loaded in Redis only, under ids drawn at random from the top quarter
 * of the id space and absent from MySQL, so no catalogue, reconciler sweep or operator page ever lists them, and
 * gone from Redis when the warm-up ends. One is sold out and wants a sale pass (a flash sale's losing path, the most
 * common answer); the other has not started (the reserve script on every request). Neither can take an order, so
 * nothing of the warm-up reaches the outbox, Kafka or MySQL.
 */
final class WarmUpSale implements AutoCloseable {

    private static final Duration AROUND = Duration.ofHours(1);
    private static final int PER_USER_LIMIT = 3;

    private final SaleStore saleStore;
    private final long soldOut;
    private final long notStarted;

    private WarmUpSale(SaleStore saleStore, long soldOut, long notStarted) {
        this.saleStore = saleStore;
        this.soldOut = soldOut;
        this.notStarted = notStarted;
    }

    static WarmUpSale open(DSLContext dsl, Skus skus, SaleStore saleStore, Clock clock) {
        SecureRandom random = new SecureRandom();
        long soldOut = unused(dsl, skus, random);
        long notStarted = unused(dsl, skus, random);
        WarmUpSale sale = new WarmUpSale(saleStore, soldOut, notStarted);
        try {
            long now = clock.millis();
            saleStore.loadSale(
                    soldOut, 0, 1, PER_USER_LIMIT, now - AROUND.toMillis(), now + AROUND.toMillis(), 1, true);
            saleStore.loadSale(
                    notStarted, 1, 1, PER_USER_LIMIT, now + AROUND.toMillis(), now + 2 * AROUND.toMillis(), 1, false);
            return sale;
        } catch (RuntimeException e) {
            sale.close();
            throw e;
        }
    }

    private static long unused(DSLContext dsl, Skus skus, SecureRandom random) {
        while (true) {
            long candidate = (1L << 62) | (random.nextLong() >>> 2);
            if (skus.stock(dsl, candidate).isEmpty()) {
                return candidate;
            }
        }
    }

    long soldOut() {
        return soldOut;
    }

    long notStarted() {
        return notStarted;
    }

    List<Long> skus() {
        return List.of(soldOut, notStarted);
    }

    @Override
    public void close() {
        saleStore.forget(soldOut);
        saleStore.forget(notStarted);
    }
}
