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

    private static final int DEADLOCK_ATTEMPTS = 10;

    private final Skus skus = new Skus();
    private final Orders orders = new Orders();
    private final Outbox outbox = new Outbox();

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
     * Creates or replaces a sale in one transaction with the SKU row locked, so a sink charging it waits,
     * and a SKU with any order, decided or on its way, is refused. Concurrent first definitions of one
     * SKU lock the same gap and one of them deadlocks: it is run again.
     */
    public Defined define(DSLContext db, Skus.Sale sale, Instant now) {
        for (int attempt = 1; ; attempt++) {
            try {
                return defineOnce(db, sale, now);
            } catch (RuntimeException e) {
                if (attempt >= DEADLOCK_ATTEMPTS || !SqlFailures.deadlock(e)) {
                    throw e;
                }
            }
        }
    }

    private Defined defineOnce(DSLContext db, Skus.Sale sale, Instant now) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            boolean existed = skus.lock(tx, sale.skuId()).isPresent();
            if (orders.anyFor(tx, sale.skuId()) || outbox.anyFor(tx, sale.skuId())) {
                return new Defined(Outcome.HAS_ORDERS, skus.current(tx, sale.skuId()).orElse(null));
            }
            skus.define(tx, sale, now);
            return new Defined(existed ? Outcome.REPLACED : Outcome.CREATED, skus.current(tx, sale.skuId()).orElseThrow());
        });
    }
}
