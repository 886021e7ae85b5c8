package io.seckill.faultmatrix;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
     * How a wait for rest went: the seconds it took (-1: not within the patience), and what it waited on, each with the
     * second it was first seen, so that a slow row says which part of the sale held it.
     */
    record Rest(double seconds, List<String> waitedOn) {

        boolean reached() {
            return seconds >= 0;
        }
    }

    /**
     * Waits until the sale is at rest, reading again every half second, counting from {@code since}
     * ({@link System#nanoTime()}).
     */
    static Rest await(FaultCluster cluster, List<Long> skus, List<String> accepted, long since, Duration patience)
            throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        List<String> waitedOn = new ArrayList<>();
        Optional<String> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            Optional<String> waitingOn = waitingOn(cluster, skus, accepted);
            if (!waitingOn.equals(last)) {
                waitingOn.ifPresent(
                        what -> waitedOn.add(String.format(Locale.ROOT, "%s from %.1f s", what, seconds(since))));
                last = waitingOn;
            }
            if (waitingOn.isEmpty()) {
                return new Rest(seconds(since), waitedOn);
            }
            Thread.sleep(500);
        }
        return new Rest(-1, waitedOn);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    /** What the sale still waits on, in the order checked; empty once at rest. */
    private static Optional<String> waitingOn(FaultCluster cluster, List<Long> skus, List<String> accepted) {
        try {
            DSLContext db = cluster.database().dsl();
            int undecided = accepted.size() - decided(db, accepted).size();
            if (undecided > 0) {
                return Optional.of(undecided + " accepted order(s) undecided");
            }
            if (db.fetchExists(
                    OUTBOX,
                    OUTBOX.AGGREGATEID
                            .in(skus.stream().map(String::valueOf).toList())
                            .and(OUTBOX.COMPLETED_AT.isNull()))) {
                return Optional.of("open outbox rows");
            }
            // Checked before Redis is read: a rebuild asked for is answered only once every SKU is written again.
            if (!new RedisEpoch(new LuaRunner(cluster.redis())).allIntact()) {
                return Optional.of("a Redis rebuild");
            }
            long drift = drift(cluster, skus);
            if (drift != 0) {
                return Optional.of("drift " + drift);
            }
            return skus.stream().allMatch(sku -> saleStore(cluster).state(sku).pending() == 0)
                    ? Optional.empty()
                    : Optional.of("units pending in Redis");
        } catch (RuntimeException stillBroken) {
            return Optional.of("a store not answering (" + stillBroken.getClass().getSimpleName() + ")");
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
            drift += Math.abs(redis.stock()
                    + redis.pending()
                    - new Skus().stock(cluster.database().dsl(), sku).orElseThrow());
        }
        return drift;
    }

    static SaleStore saleStore(FaultCluster cluster) {
        return new SaleStore(new LuaRunner(cluster.redis()));
    }
}
