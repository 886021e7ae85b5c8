package io.seckill.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one design did with one whole sale: the load's figures, how long accepted orders took to be seen decided in
 * MySQL after their answer (the drain, {@link DecisionWatch}), and the correctness counts, each read from the stores.
 * A round fails when an attempt failed (any answer but a winner's or a loser's, or none), when a count is not zero,
 * or when a design that answers before it decides was seen deciding before its answer (an end point that lies).
 *
 * @param phase the sale it was: the first of freshly started processes, as shipped or after the same warm-up for
 *              every design, or one after the warm-up rounds
 * @param drainP50Ms NaN for a design with no drain ({@link Design#answersAfterDeciding}) or no winner
 * @param earlyDecisions orders seen decided before their 202 arrived, of a design that answers before it decides
 * @param oversold units sold beyond a SKU's stock, summed over the SKUs
 * @param lost orders answered as accepted that MySQL never recorded within the drain timeout
 * @param overLimit buyers holding more units of a SKU than the limit
 * @param drift at rest, per SKU, |what the fast store would still sell - what MySQL holds|, summed
 */
public record WholeSaleRound(
        Design design,
        int round,
        Phase phase,
        WholeSaleLoad.Outcome load,
        double drainP50Ms,
        double drainP99Ms,
        long earlyDecisions,
        long sold,
        long oversold,
        long lost,
        long overLimit,
        long drift) {

    /** Which sale of a design's processes a round is. */
    public enum Phase {
        /** The first sale of processes started afresh, as shipped (a design's own warm-up, if it has one). */
        COLD_AS_SHIPPED("cold"),
        /**
         * The first sale of processes started afresh with no warm-up of their own, after the same number of untimed
         * requests as every other design.
         */
        COLD_EQUAL("cold, equal warm-up"),
        /** A sale after the warm-up rounds. */
        WARM("warm");

        private final String label;

        Phase(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * The sale's load run against {@code design} with the drain watched from outside it, then the stores checked.
     * @param passes each attempt's sale pass ({@link WholeSaleLoad#run})
     * @param ratePerSecond 0: closed loop; else the open loop's rate
     */
    static WholeSaleRound measure(
            SaleDesign design,
            int round,
            Phase phase,
            WholeSaleLoad load,
            List<WholeSaleLoad.Attempt> attempts,
            Map<String, String> passes,
            double ratePerSecond,
            List<Long> skus,
            int unitsPerSku,
            int limit,
            long drainTimeoutMs)
            throws Exception {
        try (DecisionWatch watch = DecisionWatch.start(design)) {
            WholeSaleLoad.Outcome outcome = load.run(attempts, passes, ratePerSecond, order -> watch.expect(
                    order.orderId()));
            List<String> ids = outcome.accepted().stream().map(WholeSaleLoad.Accepted::orderId).toList();
            Map<String, Long> decidedAtMs = watch.decided(ids, System.currentTimeMillis() + drainTimeoutMs);
            return check(design, round, phase, outcome, decidedAtMs, skus, unitsPerSku, limit, drainTimeoutMs);
        }
    }

    /**
     * Checks the stores after the load.
     * @param decidedAtMs when each accepted order was first seen decided in MySQL (epoch ms), those that were
     */
    static WholeSaleRound check(
            SaleDesign design,
            int round,
            Phase phase,
            WholeSaleLoad.Outcome load,
            Map<String, Long> decidedAtMs,
            List<Long> skus,
            int unitsPerSku,
            int limit,
            long drainTimeoutMs)
            throws Exception {
        long deadline = System.currentTimeMillis() + drainTimeoutMs;
        boolean drains = !design.design().answersAfterDeciding();
        Histogram drainsMs = new Histogram(3);
        long early = 0;
        long lost = 0;
        for (WholeSaleLoad.Accepted order : load.accepted()) {
            Long at = decidedAtMs.get(order.orderId());
            if (at == null) {
                lost++;
            } else if (drains && at < order.answeredAtMs()) {
                early++;
            } else if (drains) {
                drainsMs.recordValue(at - order.answeredAtMs());
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
        boolean measured = drains && drainsMs.getTotalCount() > 0;
        return new WholeSaleRound(
                design.design(),
                round,
                phase,
                load,
                measured ? drainsMs.getValueAtPercentile(50) : Double.NaN,
                measured ? drainsMs.getValueAtPercentile(99) : Double.NaN,
                early,
                sold.values().stream().mapToLong(Long::longValue).sum(),
                oversold,
                lost,
                overLimit,
                drift);
    }

    private static long drift(SaleDesign design, List<Long> skus) throws Exception {
        return design.drift(skus).values().stream().mapToLong(Math::abs).sum();
    }

    /** Why the round fails, each reason with its count; empty when it holds. */
    public List<String> failures() {
        List<String> failures = new ArrayList<>();
        count(failures, failed(), "failed attempts");
        count(failures, earlyDecisions, "decided before their answer");
        count(failures, oversold, "oversold");
        count(failures, lost, "lost");
        count(failures, overLimit, "over limit");
        count(failures, drift, "drift");
        return failures;
    }

    private static void count(List<String> failures, long count, String what) {
        if (count != 0) {
            failures.add(count + " " + what);
        }
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
