package io.seckill.benchmark;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Prints benchmark figures as fixed-width tables. */
final class Report {

    private static final String ROW = "%-18s %10s %9s %9s %9s %11s %10s%n";

    private Report() {
    }

    static void table(List<ClosedLoopLoad.Result> results, double ceiling) {
        System.out.printf(ROW, "scenario", "req/s", "p50 ms", "p99 ms", "p999 ms", "bad/failed", "of ceiling");
        for (ClosedLoopLoad.Result result : results) {
            System.out.printf(Locale.ROOT, ROW, result.scenario(), format(result.requestsPerSecond(), 0),
                    format(result.percentileMillis(50), 2), format(result.percentileMillis(99), 2),
                    format(result.percentileMillis(99.9), 2), result.unexpectedStatus() + "/" + result.failures(),
                    format(result.requestsPerSecond() / ceiling * 100, 1) + "%");
        }
    }

    /** Whether every round's every scenario got only the answers it expects; prints each one that did not. */
    static boolean everyAnswerExpected(List<List<ClosedLoopLoad.Result>> rounds) {
        boolean clean = true;
        for (int round = 0; round < rounds.size(); round++) {
            for (ClosedLoopLoad.Result result : rounds.get(round)) {
                if (!result.clean()) {
                    System.out.printf(Locale.ROOT, "FAILED: round %d, %s: %d unexpected statuses %s, %d failed%n",
                            round + 1, result.scenario(), result.unexpectedStatus(), result.statuses(),
                            result.failures());
                    clean = false;
                }
            }
        }
        return clean;
    }

    static void medians(List<List<ClosedLoopLoad.Result>> rounds) {
        System.out.printf(ROW, "scenario", "req/s", "p50 ms", "p99 ms", "p999 ms", "", "of ceiling");
        int scenarios = rounds.get(0).size();
        for (int s = 0; s < scenarios; s++) {
            int index = s;
            double rps = median(rounds.stream().mapToDouble(round -> round.get(index).requestsPerSecond()).toArray());
            double ratio = median(rounds.stream()
                    .mapToDouble(round ->
                            round.get(index).requestsPerSecond() / round.get(0).requestsPerSecond())
                    .toArray());
            System.out.printf(
                    Locale.ROOT,
                    ROW,
                    rounds.get(0).get(s).scenario(),
                    format(rps, 0),
                    format(
                            median(rounds.stream()
                                    .mapToDouble(round -> round.get(index).percentileMillis(50))
                                    .toArray()),
                            2),
                    format(
                            median(rounds.stream()
                                    .mapToDouble(round -> round.get(index).percentileMillis(99))
                                    .toArray()),
                            2),
                    format(
                            median(rounds.stream()
                                    .mapToDouble(round -> round.get(index).percentileMillis(99.9))
                                    .toArray()),
                            2),
                    "",
                    format(ratio * 100, 1) + "%");
        }
    }

    /** The median of {@code figure} over {@code items}. */
    static <T> double median(Collection<T> items, ToDoubleFunction<T> figure) {
        return median(items.stream().mapToDouble(figure).toArray());
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }
}
