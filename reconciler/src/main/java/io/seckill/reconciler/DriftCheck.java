package io.seckill.reconciler;

import io.seckill.runtime.SkuFigures;
import io.seckill.runtime.SkuFiguresReader;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares, per SKU, Redis stock + pending reservations with MySQL stock and reports the SKUs that
 * disagree. During a sale a difference is normal for a moment (a decision is committed in MySQL
 * before its result settles the Redis ledger); only a difference that persists is drift.
 */
final class DriftCheck {

    private static final Logger LOG = LoggerFactory.getLogger(DriftCheck.class);

    private final SkuFiguresReader figures;

    DriftCheck(SkuFiguresReader figures) {
        this.figures = figures;
    }

    /** @return every SKU whose two stores disagree right now */
    List<SkuFigures> run() {
        List<SkuFigures> drifting = figures.readAll().stream().filter(sku -> sku.drift() != 0).toList();
        drifting.forEach(sku -> LOG.warn("SKU {}: Redis stock {} + pending {} != MySQL stock {} (drift {})",
                sku.skuId(), sku.redisStock(), sku.pendingReservations(), sku.mysqlStock(), sku.drift()));
        return drifting;
    }
}
