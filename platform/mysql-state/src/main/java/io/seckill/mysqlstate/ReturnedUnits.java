package io.seckill.mysqlstate;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Record4;
import org.jooq.impl.DSL;

/**
 * Gives a cancelled or expired order's units back to MySQL: the SKU's stock and the buyer's purchases, once per order,
 * marked on the order's event row ({@code units_restored_at}) in the same transaction, each written by its table's
 * owner. The reconciler calls it before it gives the units to Redis, so MySQL holds them first, which a rebuild of
 * Redis and the drift check count on; the account that ends orders for buyers never writes stock. Locks are taken on
 * the event rows, then user_purchases, then sku, each in key order (the sink's order for the latter two); a deadlock
 * victim runs again ({@link DeadlockRetry}).
 */
public final class ReturnedUnits {

    private final Skus skus = new Skus();
    private final UserPurchases purchases = new UserPurchases();
    private final OrderEvents events = new OrderEvents();

    /** Gives back the units of those of {@code orderIds} whose events return stock and have not given it back yet. */
    public void restore(DSLContext db, Collection<String> orderIds, Instant now) {
        if (orderIds.isEmpty()) {
            return;
        }
        DeadlockRetry.run(() -> db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<Record4<String, Long, String, Integer>> owed = events.owingUnits(tx, orderIds);
            if (!owed.isEmpty()) {
                giveBack(tx, owed, now);
                events.markUnitsRestored(tx, owed.stream().map(Record4::value1).toList(), now);
            }
            return owed.size();
        }));
    }

    /**
     * The units back to each buyer's purchases, then to each SKU's stock, in key order (no deadlock between two
     * callers).
     */
    private void giveBack(DSLContext tx, List<Record4<String, Long, String, Integer>> owed, Instant now) {
        Map<Long, Map<String, Integer>> byBuyer = new TreeMap<>();
        Map<Long, Integer> bySku = new TreeMap<>();
        for (Record4<String, Long, String, Integer> event : owed) {
            byBuyer.computeIfAbsent(event.value2(), sku -> new TreeMap<>())
                    .merge(event.value3(), event.value4(), Integer::sum);
            bySku.merge(event.value2(), event.value4(), Integer::sum);
        }
        purchases.giveBack(tx, byBuyer);
        bySku.forEach((skuId, units) -> skus.giveBack(tx, skuId, units, now));
    }
}
