package io.seckill.benchmark;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The whole-sale comparison's report: tables of each design's medians over each kind of round (cold as shipped, cold on
 * equal terms, warm; printed, and written as Markdown) with the worst round's failed attempts and correctness counts,
 * and a chart (PNG): answers per second over the last warm round, latency percentiles of winners and losers per design
 * over the warm rounds, and each design's requests/s as a share of the no-op design's, for each kind of round.
 */
final class WholeSaleReport {

    private static final String HEADER =
            "| design | every buyer answered in | answered req/s | failed | winners p50/p99/p999 ms | losers"
                    + " p50/p99/p999 ms | drain p50/p99 ms | sold | oversold | lost | over limit | drift | vs naive |"
                    + " vs redis-queue | req/s of warm no-op |";
    private static final int COLUMNS = 15;

    private final Map<WholeSaleRound.Phase, Map<Design, List<WholeSaleRound>>> byPhase =
            new EnumMap<>(WholeSaleRound.Phase.class);

    WholeSaleReport(List<WholeSaleRound> rounds) {
        rounds.forEach(round -> byPhase.computeIfAbsent(round.phase(), phase -> new LinkedHashMap<>())
                .computeIfAbsent(round.design(), design -> new ArrayList<>())
                .add(round));
    }

    private Map<Design, List<WholeSaleRound>> rounds(WholeSaleRound.Phase phase) {
        return byPhase.getOrDefault(phase, Map.of());
    }

    /** A table for each kind of round that was run, each headed. */
    String tables() {
        StringBuilder tables = new StringBuilder();
        for (WholeSaleRound.Phase phase : byPhase.keySet()) {
            tables.append(switch (phase) {
                        case COLD_AS_SHIPPED -> "Cold, as shipped: each design's first sale on freshly started"
                                + " processes, medians over the cold rounds";
                        case COLD_EQUAL -> "Cold, on equal terms: each design's first sale on freshly started"
                                + " processes after the same number of untimed requests, medians over the cold rounds";
                        case WARM -> "Warm: medians over the rounds after the warm-up";
                    })
                    .append("\n\n")
                    .append(table(rounds(phase), noOpLimit()))
                    .append('\n');
        }
        return tables.toString();
    }

    /**
     * The medians table as Markdown; the speed ratios compare the time to answer every buyer, the last column the
     * requests/s with {@code limit}'s.
     */
    private static String table(Map<Design, List<WholeSaleRound>> byDesign, Optional<Double> limit) {
        StringBuilder table = new StringBuilder(HEADER).append('\n').append("|---".repeat(COLUMNS)).append("|\n");
        for (Map.Entry<Design, List<WholeSaleRound>> design : byDesign.entrySet()) {
            List<WholeSaleRound> rounds = design.getValue();
            double seconds = Report.median(rounds, round -> round.load().seconds());
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %.2f s | %,.0f | %s | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f | %s | %,.0f | %d | %d |"
                            + " %d | %d | %s | %s | %s |%n",
                    design.getKey().label(),
                    seconds,
                    Report.median(rounds, round -> round.load().requestsPerSecond()),
                    failed(rounds),
                    Report.median(rounds, round -> round.winnersMs(50)),
                    Report.median(rounds, round -> round.winnersMs(99)),
                    Report.median(rounds, round -> round.winnersMs(99.9)),
                    Report.median(rounds, round -> round.losersMs(50)),
                    Report.median(rounds, round -> round.losersMs(99)),
                    Report.median(rounds, round -> round.losersMs(99.9)),
                    drain(rounds),
                    Report.median(rounds, round -> round.sold()),
                    worst(rounds, WholeSaleRound::oversold),
                    worst(rounds, WholeSaleRound::lost),
                    worst(rounds, WholeSaleRound::overLimit),
                    worst(rounds, WholeSaleRound::drift),
                    ratio(byDesign, Design.NAIVE, seconds),
                    ratio(byDesign, Design.REDIS_QUEUE, seconds),
                    share(rounds, limit)
                            .map(share -> String.format(Locale.ROOT, "%.1f%%", share * 100))
                            .orElse("-")));
        }
        return table.toString();
    }

    /** The worst round's failed attempts, marked as a failure when there were any. */
    private static String failed(List<WholeSaleRound> rounds) {
        long worst = worst(rounds, WholeSaleRound::failed);
        return worst == 0 ? "0" : String.format(Locale.ROOT, "**%,d FAILED**", worst);
    }

    /** The median drain, or "-" for a design whose answer is its decision (or that decided nothing). */
    private static String drain(List<WholeSaleRound> rounds) {
        double p50 = Report.median(rounds, WholeSaleRound::drainP50Ms);
        return Double.isNaN(p50)
                ? "-"
                : String.format(Locale.ROOT, "%.0f / %.0f", p50, Report.median(rounds, WholeSaleRound::drainP99Ms));
    }

    /** How many times faster than {@code baseline} this design answered every buyer (median time over median time). */
    private static String ratio(Map<Design, List<WholeSaleRound>> byDesign, Design baseline, double seconds) {
        List<WholeSaleRound> rounds = byDesign.get(baseline);
        return rounds == null
                ? "-"
                : String.format(
                        Locale.ROOT,
                        "%.1fx",
                        Report.median(rounds, round -> round.load().seconds()) / seconds);
    }

    /**
     * What the machine can answer at all: the no-op design's median requests/s over its warm rounds (over its cold ones
     * as shipped in a run without warm rounds). Cold rounds are measured against it too: a stack with no state has no
     * cold sale of its own, only a JVM still compiling, which is no limit of the machine's.
     */
    private Optional<Double> noOpLimit() {
        List<WholeSaleRound> limit = rounds(WholeSaleRound.Phase.WARM).containsKey(Design.NO_OP)
                ? rounds(WholeSaleRound.Phase.WARM).get(Design.NO_OP)
                : rounds(WholeSaleRound.Phase.COLD_AS_SHIPPED).get(Design.NO_OP);
        return Optional.ofNullable(limit)
                .map(rounds -> Report.median(rounds, round -> round.load().requestsPerSecond()));
    }

    /** The rounds' median requests/s as a share of {@code limit}. */
    private static Optional<Double> share(List<WholeSaleRound> rounds, Optional<Double> limit) {
        return limit.map(requestsPerSecond ->
                Report.median(rounds, round -> round.load().requestsPerSecond()) / requestsPerSecond);
    }

    /** Each round's figures, as the run printed them. */
    String everyRound() {
        StringBuilder lines = new StringBuilder();
        byPhase.forEach((phase, byDesign) -> byDesign.values().stream()
                .flatMap(List::stream)
                .forEach(round -> lines.append(phase.label()).append(' ').append(line(round)).append('\n')));
        return lines.toString();
    }

    static String line(WholeSaleRound round) {
        return String.format(
                Locale.ROOT,
                "round %d  %-11s answered in %6.2f s  %,9.0f answered req/s  failed %d  winners p99 %7.2f ms"
                        + "  losers p99 %7.2f ms  drain p99 %9s  sold %,d  oversold %d  lost %d  over limit %d"
                        + "  drift %d%s",
                round.round(),
                round.design().label(),
                round.load().seconds(),
                round.load().requestsPerSecond(),
                round.failed(),
                round.winnersMs(99),
                round.losersMs(99),
                Double.isNaN(round.drainP99Ms())
                        ? "-"
                        : String.format(Locale.ROOT, "%.0f ms", round.drainP99Ms()),
                round.sold(),
                round.oversold(),
                round.lost(),
                round.overLimit(),
                round.drift(),
                round.failures().isEmpty() ? "" : "  FAILED: " + String.join(", ", round.failures()));
    }

    void write(Path directory, String heading) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(
                directory.resolve("report.md"),
                "# Whole sale, side by side\n\n" + heading + "\n\nFailed and correctness columns: the worst round.\n\n"
                        + tables() + "\nEvery round:\n\n```\n" + everyRound() + "```\n\n![chart](chart.png)\n");
        ImageIO.write(chart(), "png", directory.resolve("chart.png").toFile());
    }

    private BufferedImage chart() {
        XYSeriesCollection throughput = new XYSeriesCollection();
        DefaultCategoryDataset latency = new DefaultCategoryDataset();
        Map<Design, List<WholeSaleRound>> charted = byPhase.containsKey(WholeSaleRound.Phase.WARM)
                ? rounds(WholeSaleRound.Phase.WARM)
                : rounds(WholeSaleRound.Phase.COLD_AS_SHIPPED);
        for (Map.Entry<Design, List<WholeSaleRound>> design : charted.entrySet()) {
            WholeSaleRound last = design.getValue().get(design.getValue().size() - 1);
            XYSeries series = new XYSeries(design.getKey().label() + " (failed: " + last.failed() + ")");
            long[] slices = last.load().answersPerSlice();
            for (int i = 0; i < slices.length; i++) {
                series.add(i * WholeSaleLoad.SLICE_MS / 1000.0, slices[i] * 1000.0 / WholeSaleLoad.SLICE_MS);
            }
            throughput.addSeries(series);
            List<WholeSaleRound> rounds = design.getValue();
            for (double percentile : new double[] {50, 99, 99.9}) {
                latency.addValue(
                        Report.median(rounds, round -> round.winnersMs(percentile)),
                        design.getKey().label(),
                        "winners p" + format(percentile));
                latency.addValue(
                        Report.median(rounds, round -> round.losersMs(percentile)),
                        design.getKey().label(),
                        "losers p" + format(percentile));
            }
        }
        JFreeChart overTime = ChartFactory.createXYLineChart(
                "Answers (winners and losers) per second over the last round",
                "seconds from the start",
                "answers/s",
                throughput,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        JFreeChart percentiles = ChartFactory.createBarChart(
                "Latency percentiles (medians over the rounds)",
                "",
                "ms",
                latency,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        DefaultCategoryDataset shares = new DefaultCategoryDataset();
        byPhase.forEach((phase, byDesign) -> byDesign.forEach((design, rounds) -> share(rounds, noOpLimit())
                .ifPresent(share -> shares.addValue(share * 100, design.label(), phase.label()))));
        JFreeChart limit = ChartFactory.createBarChart(
                "Requests/s as a share of the warm no-op design's (medians)",
                "",
                "%",
                shares,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        BufferedImage image = new BufferedImage(1200, 1500, BufferedImage.TYPE_INT_RGB);
        Graphics2D canvas = image.createGraphics();
        canvas.drawImage(overTime.createBufferedImage(1200, 500), 0, 0, null);
        canvas.drawImage(percentiles.createBufferedImage(1200, 500), 0, 500, null);
        canvas.drawImage(limit.createBufferedImage(1200, 500), 0, 1000, null);
        canvas.dispose();
        return image;
    }

    private static String format(double percentile) {
        return percentile == Math.rint(percentile) ? Integer.toString((int) percentile) : Double.toString(percentile);
    }

    private static long worst(List<WholeSaleRound> rounds, ToLongFunction<WholeSaleRound> count) {
        return rounds.stream().mapToLong(count).max().orElse(0);
    }
}
