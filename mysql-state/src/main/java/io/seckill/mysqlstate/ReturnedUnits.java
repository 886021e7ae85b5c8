package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;

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
 * marked on the order's event row ({@code units_restored_at}) in the same transaction. The reconciler calls it before
 * it gives the units to Redis, so MySQL holds them first, which a rebuild of Redis and the drift check count on; the
 * account that ends orders for buyers never writes stock. Locks are taken on the event rows, then user_purchases, then
 * sku, each in key order (the sink's order for the latter two); a deadlock victim runs again ({@link DeadlockRetry}).
 */
public final class ReturnedUnits {

    private final Skus skus = new Skus();
    private final UserPurchases purchases = new UserPurchases();

    /** Gives back the units of those of {@code orderIds} whose events return stock and have not given it back yet. */
    public void restore(DSLContext db, Collection<String> orderIds, Instant now) {
        if (orderIds.isEmpty()) {
            return;
        }
        DeadlockRetry.run(() -> db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<Record4<String, Long, String, Integer>> owed = tx.select(ORDER_EVENTS.ID, ORDER_EVENTS.SKU_ID, ORDER_EVENTS.USER_ID, ORDER_EVENTS.QUANTITY)
                    .from(ORDER_EVENTS)
                    .where(ORDER_EVENTS.ID.in(orderIds))
                    .and(ORDER_EVENTS.RETURNS_STOCK.isTrue())
                    .and(ORDER_EVENTS.UNITS_RESTORED_AT.isNull())
                    .orderBy(ORDER_EVENTS.ID)
                    .forUpdate()
                    .fetch();
            if (!owed.isEmpty()) {
                giveBack(tx, owed, now);
                tx.update(ORDER_EVENTS).set(ORDER_EVENTS.UNITS_RESTORED_AT, now)
                        .where(ORDER_EVENTS.ID.in(owed.stream().map(Record4::value1).toList()))
                        .execute();
            }
            return owed.size();
        }));
    }

    /** The units back to each buyer's purchases, then to each SKU's stock, in key order (no deadlock between two callers). */
    private void giveBack(DSLContext tx, List<Record4<String, Long, String, Integer>> owed, Instant now) {
        Map<Long, Map<String, Integer>> byBuyer = new TreeMap<>();
        Map<Long, Integer> bySku = new TreeMap<>();
        for (Record4<String, Long, String, Integer> event : owed) {
            byBuyer.computeIfAbsent(event.value2(), sku -> new TreeMap<>()).merge(event.value3(), event.value4(), Integer::sum);
            bySku.merge(event.value2(), event.value4(), Integer::sum);
        }
        purchases.giveBack(tx, byBuyer);
        bySku.forEach((skuId, units) -> skus.giveBack(tx, skuId, units, now));
    }
}
