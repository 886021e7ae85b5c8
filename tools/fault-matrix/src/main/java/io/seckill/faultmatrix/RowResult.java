package io.seckill.faultmatrix;

import java.util.List;
import java.util.Locale;

/**
 * One row of the fault matrix: what the buyers were told and what became of their orders.
 * @param ghosts orders recorded in MySQL whose buyer was answered with an error
 * @param mischarged the sum over the sale's SKUs of |first stock - MySQL stock - units confirmed|: a decision applied
 *                   twice (or lost) charges the stock once too often (or never), which no orders row shows
 * @param drift the sum over the sale's SKUs of |Redis stock + pending - MySQL stock| at the end
 * @param convergeSeconds from the repair of the fault to every accepted order decided and the stores
 *                        agreeing, or -1 when that did not happen within the matrix's patience
 * @param badAnswers answers no buyer should get: anything but 202, 409 and 503 (a dependency that is down
 *                   is a 503, never a 500)
 * @param supervisorRestarts services that ended on their own during the row and were started again: a fault the
 *                           system is built to outlive ends no service (a repair that splits a live transaction does)
 * @param waitedOn what the sale waited on after the repair, each from when it was first seen (see {@link
 *                 SaleAtRest.Rest}): a row slow to converge says which part held it
 * @param landing what of the sale the fault met: a row whose fault met nothing tested nothing, and fails
 */
public record RowResult(
        Fault fault,
        Moment moment,
        int accepted,
        int confirmed,
        int rejected,
        int stuck,
        long oversold,
        int ghosts,
        long mischarged,
        long drift,
        int unanswered,
        int badAnswers,
        double convergeSeconds,
        boolean newSaleWorks,
        int supervisorRestarts,
        List<String> waitedOn,
        Landing landing) {

    /**
     * The bound: the fault met the sale, orders were taken, every promise kept, every answer one a buyer may get,
     * settled within 10 s of the repair, no service ended on its own, and the system still sells.
     */
    public static final double CONVERGE_BOUND_SECONDS = 10;

    static final String HEADER = String.format(
            Locale.ROOT,
            "%-82s %6s %9s %8s %5s %8s %6s %10s %5s %9s %10s %9s %8s %8s %4s  %s",
            "fault",
            "202s",
            "confirmed",
            "rejected",
            "stuck",
            "oversold",
            "ghosts",
            "mischarged",
            "drift",
            "no answer",
            "bad answer",
            "converge",
            "new sale",
            "restarts",
            "pass",
            "landed");

    public boolean passed() {
        return landing.reached()
                && accepted > 0
                && stuck == 0
                && oversold == 0
                && ghosts == 0
                && mischarged == 0
                && drift == 0
                && badAnswers == 0
                && convergeSeconds >= 0
                && convergeSeconds <= CONVERGE_BOUND_SECONDS
                && supervisorRestarts == 0
                && newSaleWorks;
    }

    String line() {
        return String.format(
                Locale.ROOT,
                "%-82s %6d %9d %8d %5d %8d %6d %10d %5d %9d %10d %9s %8s %8d %4s  %s",
                fault.description() + ", " + moment.label(),
                accepted,
                confirmed,
                rejected,
                stuck,
                oversold,
                ghosts,
                mischarged,
                drift,
                unanswered,
                badAnswers,
                convergeSeconds < 0 ? "never" : String.format(Locale.ROOT, "%.1f s", convergeSeconds),
                newSaleWorks ? "yes" : "NO",
                supervisorRestarts,
                passed() ? "yes" : "NO",
                landing.describe());
    }
}
