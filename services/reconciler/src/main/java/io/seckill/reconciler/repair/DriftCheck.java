package io.seckill.reconciler.repair;

import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.SkuFigures;
import io.seckill.redisstate.SaleStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares, per SKU, Redis stock + pending reservations with MySQL stock, and repairs what is drift
 * and nothing else. MySQL's side is one consistent snapshot (stock and undecided orders together);
 * during a sale a difference is normal for a moment (a decision is committed in MySQL before its
 * result settles the Redis ledger), so a SKU is only judged at rest: nothing pending in Redis, no
 * undecided order in MySQL, no cancelled or expired order's units on their way back, no stock addition
 * Redis has not taken yet. A difference seen at rest, the same in {@code repairAfter} checks in a
 * row, is drift: Redis's free stock is set to MySQL's, counted and logged, and only if Redis did not
 * move meanwhile ({@link SaleStore#correctStock}). A SKU split over buckets is compared summed; before each look, the
 * transfers between its buckets that their takers left unfinished are finished.
 */
public final class DriftCheck {

    private static final Logger LOG = LoggerFactory.getLogger(DriftCheck.class);

    private final DSLContext dsl;
    private final Skus skus;
    private final OutboxLookups outbox;
    private final OrderEvents orderEvents;
    private final StockAdjustments adjustments;
    private final SaleStore saleStore;
    private final int repairAfter;
    private final ReconcilerMetrics metrics;
    private final Map<Long, Streak> streaks = new HashMap<>();

    DriftCheck(
            DSLContext dsl,
            Skus skus,
            OutboxLookups outbox,
            OrderEvents orderEvents,
            StockAdjustments adjustments,
            SaleStore saleStore,
            int repairAfter,
            ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.skus = skus;
        this.outbox = outbox;
        this.orderEvents = orderEvents;
        this.adjustments = adjustments;
        this.saleStore = saleStore;
        this.repairAfter = repairAfter;
        this.metrics = metrics;
    }

    /** One check of every SKU; repairs the drift that persisted. @return every SKU's figures */
    synchronized List<SkuFigures> run() {
        MySqlSide mysql = dsl.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            // Units MySQL holds that Redis has not got yet: cancelled or expired orders' returns and stock additions.
            Map<Long, Integer> owedToRedis = new HashMap<>(orderEvents.returningQuantities(tx));
            adjustments.additionsNotInRedis(tx).forEach((sku, units) -> owedToRedis.merge(sku, units, Integer::sum));
            return new MySqlSide(skus.stocks(tx), outbox.openQuantities(tx), owedToRedis);
        });
        List<SkuFigures> all = mysql.stocks().entrySet().stream()
                .map(sku -> figures(sku.getKey(), sku.getValue(), mysql.undecided().getOrDefault(sku.getKey(), 0),
                        mysql.returning().getOrDefault(sku.getKey(), 0)))
                .filter(sku -> sku.redisStock() >= 0)
                .toList();
        streaks.keySet().retainAll(all.stream().map(SkuFigures::skuId).toList());
        all.forEach(this::judge);
        return all;
    }

    private void judge(SkuFigures sku) {
        if (!sku.atRest() || sku.drift() == 0) {
            streaks.remove(sku.skuId());
            return;
        }
        Streak streak = streaks.merge(sku.skuId(), new Streak(sku.drift(), 1),
                (before, now) -> before.drift() == now.drift() ? new Streak(now.drift(), before.checks() + 1) : now);
        LOG.warn(
                "SKU {}: Redis stock {} + pending {} != MySQL stock {} (drift {}, seen {} time(s) at rest)",
                sku.skuId(),
                sku.redisStock(),
                sku.pendingReservations(),
                sku.mysqlStock(),
                sku.drift(),
                streak.checks());
        if (streak.checks() >= repairAfter && saleStore.correctStock(sku.skuId(), sku.redisStock(), sku.mysqlStock())) {
            streaks.remove(sku.skuId());
            metrics.driftRepaired();
            LOG.warn(
                    "SKU {}: drift {} repaired, Redis stock set from {} to MySQL's {}",
                    sku.skuId(),
                    sku.drift(),
                    sku.redisStock(),
                    sku.mysqlStock());
        }
    }

    private SkuFigures figures(long skuId, int mysqlStock, int undecided, int returning) {
        // Units a dead or stalled taker left moving between two buckets arrive first (once, however often finished).
        SaleStore.RedisSkuState redis = saleStore.stateWithTransfersFinished(skuId, SaleStore.TRANSFER_GRACE);
        return new SkuFigures(skuId, mysqlStock, undecided, returning, redis.stock(), redis.pending());
    }

    private record MySqlSide(Map<Long, Integer> stocks, Map<Long, Integer> undecided, Map<Long, Integer> returning) {
    }

    private record Streak(long drift, int checks) {
    }

    /** The job that compares the stores and repairs a drift seen at rest, its figures to the metrics. */
    public static Job job(ReconcilerParts parts, RepairSettings settings) {
        ReconcilerParts.Tables tables = parts.tables();
        DriftCheck drift = new DriftCheck(parts.dsl(), tables.skus(), tables.outboxRows(), tables.orderEvents(),
                tables.stockAdjustments(), parts.saleStore(), settings.driftRepairAfter(), parts.metrics());
        return new Job("drift check", settings.driftCheckInterval(), () -> parts.metrics().skus(drift.run()));
    }
}
