package io.seckill.mysqlstate;

import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Defines sales in MySQL, which comes first: Redis is loaded afterwards from what MySQL then holds,
 * with its version, so that whatever order concurrent definitions reach Redis in, the newest wins in
 * both stores.
 */
public final class SaleDefinitions {

    private final Skus skus = new Skus();
    private final Orders orders = new Orders();
    private final OutboxLookups outbox = new OutboxLookups();

    /** What a definition did. */
    public enum Outcome {
        CREATED,
        REPLACED,
        /** Refused: the SKU has orders (decided, recorded or fenced); its stock would be counted twice or lost. */
        HAS_ORDERS
    }

    /** @param sale what MySQL holds afterwards (the sale as it was when refused; null when there is none) */
    public record Defined(Outcome outcome, Skus.VersionedSale sale) {
    }

    /**
     * Creates or replaces a sale in one transaction: the upsert comes first and holds the SKU row, so a
     * sink charging it waits; then a SKU with any order, decided or on its way, rolls it back and is
     * refused. Concurrent upserts of a new SKU can still deadlock in InnoDB; the loser runs again.
     */
    public Defined define(DSLContext db, Skus.Sale sale, Instant now) {
        try {
            return DeadlockRetry.run(() -> defineOnce(db, sale, now));
        } catch (HasOrders refused) {
            return new Defined(Outcome.HAS_ORDERS, skus.current(db, sale.skuId()).orElse(null));
        }
    }

    private Defined defineOnce(DSLContext db, Skus.Sale sale, Instant now) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            boolean created = skus.define(tx, sale, now);
            if (orders.anyFor(tx, sale.skuId()) || outbox.anyFor(tx, sale.skuId())) {
                throw new HasOrders();
            }
            return new Defined(
                    created ? Outcome.CREATED : Outcome.REPLACED,
                    skus.current(tx, sale.skuId()).orElseThrow());
        });
    }

    /** Rolls a definition back: the SKU has orders. */
    private static final class HasOrders extends RuntimeException {

        private static final long serialVersionUID = 1L;
        HasOrders() {
            super(null, null, false, false);
        }
    }
}
