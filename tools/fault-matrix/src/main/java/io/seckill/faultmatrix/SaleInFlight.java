package io.seckill.faultmatrix;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.SaleLayout;
import io.seckill.redisstate.SkuKeys;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.jooq.DSLContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * What of a sale is in flight, read straight from the stores by their contracts (the Redis key names, the outbox
 * table), never through the services' own figures: the fault matrix's evidence that a fault met the sale.
 */
final class SaleInFlight {

    private SaleInFlight() {
    }

    /** Reservations Redis holds for the sale and no decision has settled yet: every bucket's ledger entries. */
    static long openReservations(UnifiedJedis redis, List<Long> skus) {
        return overBuckets(redis, skus, bucket -> redis.hlen(bucket.ledger()));
    }

    /** The orders the sale's buckets hold reservations for, by id. */
    static Set<String> reservedOrders(UnifiedJedis redis, List<Long> skus) {
        Set<String> orders = new HashSet<>();
        overBuckets(redis, skus, bucket -> {
            orders.addAll(redis.hkeys(bucket.ledger()));
            return 0;
        });
        return orders;
    }

    /** Units moving between the sale's buckets: transfers applied so far and transfers on their way. */
    static long transfers(UnifiedJedis redis, List<Long> skus) {
        return overBuckets(redis, skus, bucket -> redis.scard(bucket.incoming())
                + redis.hlen(bucket.outgoing()));
    }

    /** Each bucket's generation (the load or rebuild that last wrote it), by its stock key. */
    static Map<String, String> generations(UnifiedJedis redis, List<Long> skus) {
        Map<String, String> generations = new HashMap<>();
        overBuckets(redis, skus, bucket -> {
            generations.put(bucket.stock(), String.valueOf(redis.hget(bucket.sale(), "generation")));
            return 0;
        });
        return generations;
    }

    /** Of the buckets {@link #generations} found, those whose stock key is gone. */
    static long bucketsEmptied(UnifiedJedis redis, Map<String, String> generations) {
        return generations.keySet().stream().filter(stock -> !redis.exists(stock)).count();
    }

    /** Buckets whose generation is not the one {@code before} holds: written again by a rebuild. */
    static long bucketsRebuilt(UnifiedJedis redis, List<Long> skus, Map<String, String> before) {
        Map<String, String> now = generations(redis, skus);
        return before.entrySet().stream()
                .filter(bucket -> !bucket.getValue().equals(now.get(bucket.getKey())))
                .count();
    }

    /** Orders the outbox recorded for the sale that are not decided yet (their row still open). */
    static long recordedUndecided(DSLContext db, List<Long> skus) {
        return db.fetchCount(
                OUTBOX,
                OUTBOX.AGGREGATEID.in(aggregateIds(skus))
                        .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                        .and(OUTBOX.COMPLETED_AT.isNull()));
    }

    /** The buyers of the sale's reservations fenced off before their order was recorded, one per fence. */
    static List<String> fencedBuyers(DSLContext db, List<Long> skus) {
        return db.select(OUTBOX.USER_ID)
                .from(OUTBOX)
                .where(OUTBOX.AGGREGATEID.in(aggregateIds(skus)))
                .and(OUTBOX.TYPE.eq(Outbox.VOIDED_TYPE))
                .fetch(OUTBOX.USER_ID);
    }

    private static List<String> aggregateIds(List<Long> skus) {
        return skus.stream().map(String::valueOf).toList();
    }

    /** The sum of {@code count} over every bucket of every SKU, its buckets read from the SKU's layout key. */
    private static long overBuckets(UnifiedJedis redis, List<Long> skus, ToLongFunction<SkuKeys> count) {
        long sum = 0;
        for (long sku : skus) {
            int buckets = Math.max(1, SaleLayout.bucketsRecorded(redis.get(SkuKeys.layout(sku))));
            for (SkuKeys bucket : new SaleLayout(sku, buckets).all()) {
                sum += count.applyAsLong(bucket);
            }
        }
        return sum;
    }
}
