package io.seckill.faultmatrix;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * Whether a sale under fault has come to rest: every accepted order has its final word, no outbox row of
 * its SKUs is open, no rebuild of Redis is asked for or under way, and Redis agrees with MySQL (stock +
 * pending == MySQL's stock, nothing pending). The fault runs wait for it before they judge a sale: a
 * rebuild refuses a SKU to buyers (not loaded) while it writes it, which is no promise broken but is no
 * rest either.
 */
final class SaleAtRest {

    private SaleAtRest() {
    }

    /**
     * Waits until the sale is at rest, reading again every half second.
     * @return seconds from {@code since} ({@link System#nanoTime()}) until it was, -1 when it was not within {@code patience}
     */
    static double await(FaultCluster cluster, List<Long> skus, List<String> accepted, long since, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            if (reached(cluster, skus, accepted)) {
                return (System.nanoTime() - since) / 1e9;
            }
            Thread.sleep(500);
        }
        return -1;
    }

    private static boolean reached(FaultCluster cluster, List<Long> skus, List<String> accepted) {
        try {
            DSLContext db = cluster.database().dsl();
            if (decided(db, accepted).size() < accepted.size()
                    || db.fetchExists(OUTBOX, OUTBOX.AGGREGATEID.in(skus.stream().map(String::valueOf).toList()).and(OUTBOX.COMPLETED_AT.isNull()))) {
                return false;
            }
            // Checked before Redis is read: a rebuild asked for is answered only once every SKU is written again.
            if (!new RedisEpoch(new LuaRunner(cluster.redis())).allIntact()) {
                return false;
            }
            return drift(cluster, skus) == 0 && skus.stream().allMatch(sku -> saleStore(cluster).state(sku).pending() == 0);
        } catch (RuntimeException stillBroken) {
            return false;
        }
    }

    /**
     * The orders with a final word: decided by the sink (orders), or fenced off before they were recorded
     * (an outbox fence row: rejected NOT_RECORDED, their stock returned), as the buyer's status shows.
     */
    static Set<String> decided(DSLContext db, Collection<String> orderIds) {
        Set<String> decided = new HashSet<>(new Orders().decided(db, orderIds).keySet());
        new OutboxLookups().states(db, orderIds).forEach((orderId, state) -> {
            if (state == OutboxLookups.RowState.VOIDED) {
                decided.add(orderId);
            }
        });
        return decided;
    }

    /** The sum over the SKUs of |Redis stock + pending - MySQL stock|. */
    static long drift(FaultCluster cluster, List<Long> skus) {
        long drift = 0;
        for (long sku : skus) {
            SaleStore.RedisSkuState redis = saleStore(cluster).state(sku);
            drift += Math.abs(redis.stock() + redis.pending() - new Skus().stock(cluster.database().dsl(), sku).orElseThrow());
        }
        return drift;
    }

    static SaleStore saleStore(FaultCluster cluster) {
        return new SaleStore(new LuaRunner(cluster.redis()));
    }
}
