package io.seckill.reconciler;

import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares, per SKU, Redis stock + pending reservations with MySQL stock and reports the SKUs that
 * disagree. During a sale a difference is normal for a moment (a decision is committed in MySQL
 * before its result settles the Redis ledger); only a difference that persists is drift.
 */
record DriftCheck(DSLContext dsl, Skus skus, SaleStore saleStore) {

    private static final Logger LOG = LoggerFactory.getLogger(DriftCheck.class);

    /** Logs the SKUs whose two stores disagree right now. @return every SKU's figures */
    List<SkuFigures> run() {
        List<SkuFigures> all = skus.stocks(dsl).entrySet().stream()
                .map(sku -> figures(sku.getKey(), sku.getValue()))
                .toList();
        all.stream().filter(sku -> sku.drift() != 0).forEach(sku -> LOG.warn("SKU {}: Redis stock {} + pending {} != MySQL stock {} (drift {})",
                sku.skuId(), sku.redisStock(), sku.pendingReservations(), sku.mysqlStock(), sku.drift()));
        return all;
    }

    private SkuFigures figures(long skuId, int mysqlStock) {
        SaleStore.RedisSkuState redis = saleStore.state(skuId);
        return new SkuFigures(skuId, mysqlStock, redis.stock(), redis.pending());
    }
}
