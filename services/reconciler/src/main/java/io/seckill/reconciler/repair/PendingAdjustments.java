package io.seckill.reconciler.repair;

import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.SaleStore;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies to Redis the stock additions MySQL recorded but Redis never took (the ingress died between
 * the two, or the sale was being restored), once each: Redis keeps the ids it applied. Only additions
 * wait here; removals are taken from Redis before MySQL records them. An addition waits {@code after} by
 * MySQL's clock, which stamped it, so that the ingress recording it applies it itself first; meanwhile the
 * drift check counts it as on its way, never as drift to correct (which would count it a second time).
 */
public record PendingAdjustments(DSLContext dsl, StockAdjustments adjustments, SaleStore saleStore, Duration after) {

    private static final Logger LOG = LoggerFactory.getLogger(PendingAdjustments.class);
    private static final int BATCH = 500;

    /** @return adjustments applied now */
    int apply() {
        List<StockAdjustments.Adjustment> pending = adjustments.notInRedis(dsl, after, BATCH);
        int applied = 0;
        for (StockAdjustments.Adjustment adjustment : pending) {
            switch (saleStore
                    .adjustStock(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta())
                    .adjustment()) {
                case APPLIED, ALREADY -> {
                    adjustments.markInRedis(dsl, adjustment.adjustmentId());
                    applied++;
                    LOG.info(
                            "stock adjustment {} of SKU {} ({}) applied to Redis",
                            adjustment.adjustmentId(),
                            adjustment.skuId(),
                            adjustment.delta());
                }
                case NOT_LOADED ->
                    LOG.info(
                            "stock adjustment {}: SKU {} not loaded in Redis yet",
                            adjustment.adjustmentId(),
                            adjustment.skuId());
                case INSUFFICIENT ->
                    LOG.warn(
                            "stock adjustment {} of SKU {} ({}) does not fit Redis's free stock; left for an operator",
                            adjustment.adjustmentId(),
                            adjustment.skuId(),
                            adjustment.delta());
            }
        }
        return applied;
    }

    /** The job that gives Redis the stock additions MySQL recorded and Redis never took. */
    public static Job job(ReconcilerParts parts, RepairSettings settings) {
        PendingAdjustments adjustments = new PendingAdjustments(
                parts.dsl(), parts.tables().stockAdjustments(), parts.saleStore(), settings.leakSweepInterval());
        return new Job("stock adjustments for Redis", settings.leakSweepInterval(), adjustments::apply);
    }
}
