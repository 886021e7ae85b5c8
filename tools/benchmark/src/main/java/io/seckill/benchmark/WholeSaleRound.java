package io.seckill.benchmark;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one design did with one whole sale: the load's figures, how long accepted orders took to reach
 * MySQL after their answer (the drain), and the correctness counts, each checked against the stores.
 *
 * @param cold whether this was its processes' first round since they started (the buy path never used before it)
 * @param oversold units sold beyond a SKU's stock, summed over the SKUs
 * @param lost orders answered as accepted that MySQL never recorded within the drain timeout
 * @param overLimit buyers holding more units of a SKU than the limit
 * @param drift at rest, per SKU, |what the fast store would still sell - what MySQL holds|, summed
 */
public record WholeSaleRound(
        Design design,
        int round,
        boolean cold,
        WholeSaleLoad.Outcome load,
        double drainP50Ms,
        double drainP99Ms,
        long sold,
        long oversold,
        long lost,
        long overLimit,
        long drift) {

    /** Checks the stores after the load: waits for the accepted orders to reach MySQL, then counts. */
    static WholeSaleRound check(
            SaleDesign design,
            int round,
            boolean cold,
            WholeSaleLoad.Outcome load,
            List<Long> skus,
            int unitsPerSku,
            int limit,
            long drainTimeoutMs)
            throws Exception {
        List<String> ids = load.accepted().stream().map(WholeSaleLoad.Accepted::orderId).toList();
        long deadline = System.currentTimeMillis() + drainTimeoutMs;
        Map<String, Instant> committed = design.committed(ids);
        while (committed.size() < ids.size() && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            committed = design.committed(ids);
        }
        Histogram drainsMs = new Histogram(3);
        for (WholeSaleLoad.Accepted order : load.accepted()) {
            Instant at = committed.get(order.orderId());
            if (at != null) {
                drainsMs.recordValue(Math.max(0, at.toEpochMilli() - order.answeredAtMs()));
            }
        }
        Map<Long, Long> sold = design.soldUnits(skus);
        long oversold = sold.values().stream().mapToLong(units -> Math.max(0, units - unitsPerSku)).sum();
        long overLimit = design.unitsPerBuyer(skus).values().stream().filter(units -> units > limit).count();
        // At rest: what is still on its way (seckill's results settling the ledger) is waited for, up to
        // the drain's bound; drift left after that is the design's.
        long drift = drift(design, skus);
        while (drift != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            drift = drift(design, skus);
        }
        return new WholeSaleRound(
                design.design(),
                round,
                cold,
                load,
                drainsMs.getValueAtPercentile(50),
                drainsMs.getValueAtPercentile(99),
                sold.values().stream().mapToLong(Long::longValue).sum(),
                oversold,
                ids.size() - committed.size(),
                overLimit,
                drift);
    }

    private static long drift(SaleDesign design, List<Long> skus) throws Exception {
        return design.drift(skus).values().stream().mapToLong(Math::abs).sum();
    }

    /** Buyers answered 2xx, their order accepted. */
    public long winners() {
        return load.winners().getTotalCount();
    }

    /** Buyers answered 409: sold out, not enough left, or over their limit. */
    public long losers() {
        return load.losers().getTotalCount();
    }

    /** Attempts answered otherwise, or not at all. */
    public long failed() {
        return load.failed();
    }

    double winnersMs(double percentile) {
        return load.winners().getValueAtPercentile(percentile) / 1e6;
    }

    double losersMs(double percentile) {
        return load.losers().getValueAtPercentile(percentile) / 1e6;
    }
}
