package io.seckill.reconciler;

import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.redisstate.SaleStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies to Redis the stock additions MySQL recorded but Redis never took (the ingress died between
 * the two, or the sale was being restored), once each: Redis keeps the ids it applied. Only additions
 * wait here; removals are taken from Redis before MySQL records them.
 */
record PendingAdjustments(DSLContext dsl, StockAdjustments adjustments, SaleStore saleStore, Duration after, Clock clock) {

    private static final Logger LOG = LoggerFactory.getLogger(PendingAdjustments.class);
    private static final int BATCH = 500;

    /** @return adjustments applied now */
    int apply() {
        List<StockAdjustments.Adjustment> pending = adjustments.notInRedis(dsl, clock.instant().minus(after), BATCH);
        int applied = 0;
        for (StockAdjustments.Adjustment adjustment : pending) {
            switch (saleStore.adjustStock(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta()).adjustment()) {
                case APPLIED, ALREADY -> {
                    adjustments.markInRedis(dsl, adjustment.adjustmentId());
                    applied++;
                    LOG.info("stock adjustment {} of SKU {} ({}) applied to Redis", adjustment.adjustmentId(), adjustment.skuId(), adjustment.delta());
                }
                case NOT_LOADED -> LOG.info("stock adjustment {}: SKU {} not loaded in Redis yet", adjustment.adjustmentId(), adjustment.skuId());
                case INSUFFICIENT -> LOG.warn("stock adjustment {} of SKU {} ({}) does not fit Redis's free stock; left for an operator",
                        adjustment.adjustmentId(), adjustment.skuId(), adjustment.delta());
            }
        }
        return applied;
    }
}
