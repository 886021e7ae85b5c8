package io.seckill.benchmark;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * The whole-sale comparison's report: tables of each design's medians over the cold rounds and over the warm
 * rounds (printed, and written as Markdown) and a chart (PNG): answers per second over the last warm round,
 * latency percentiles of winners and losers per design over the warm rounds, and each design's requests/s as a share
 * of the no-op design's, cold and warm.
 */
final class WholeSaleReport {

    private static final String HEADER =
            "| design | every buyer answered in | req/s | winners p50/p99/p999 ms | losers p50/p99/p999 ms | drain"
                    + " p50/p99 ms | sold | oversold | lost | over limit | drift | vs naive | vs redis-queue | req/s of"
                    + " warm no-op |";

    private final Map<Design, List<WholeSaleRound>> coldByDesign = new LinkedHashMap<>();
    private final Map<Design, List<WholeSaleRound>> byDesign = new LinkedHashMap<>();

    WholeSaleReport(List<WholeSaleRound> rounds) {
        rounds.forEach(round -> (round.cold() ? coldByDesign : byDesign)
                .computeIfAbsent(round.design(), design -> new ArrayList<>())
                .add(round));
    }

    /** The cold rounds' table and the warm rounds', each headed, those that were run. */
    String tables() {
        StringBuilder tables = new StringBuilder();
        if (!coldByDesign.isEmpty()) {
            tables.append("Cold: each design's first sale on freshly started processes, medians over the cold"
                            + " rounds\n\n")
                    .append(table(coldByDesign, noOpLimit()))
                    .append('\n');
        }
        if (!byDesign.isEmpty()) {
            tables.append("Warm: medians over the rounds after the warm-up\n\n").append(table(byDesign, noOpLimit()));
        }
        return tables.toString();
    }

    /**
     * The medians table as Markdown; the speed ratios compare the time to answer every buyer, the last column the
     * requests/s with {@code limit}'s.
     */
    private static String table(Map<Design, List<WholeSaleRound>> byDesign, Optional<Double> limit) {
        StringBuilder table = new StringBuilder(HEADER).append('\n').append("|---".repeat(14)).append("|\n");
        for (Map.Entry<Design, List<WholeSaleRound>> design : byDesign.entrySet()) {
            List<WholeSaleRound> rounds = design.getValue();
            double seconds = Report.median(rounds, round -> round.load().seconds());
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %.2f s | %,.0f | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f | %.0f / %.0f | %,.0f | %d | %d |"
                            + " %d | %d | %s | %s | %s |%n",
                    design.getKey().label(),
                    seconds,
                    Report.median(rounds, round -> round.load().requestsPerSecond()),
                    Report.median(rounds, round -> round.winnersMs(50)),
                    Report.median(rounds, round -> round.winnersMs(99)),
                    Report.median(rounds, round -> round.winnersMs(99.9)),
                    Report.median(rounds, round -> round.losersMs(50)),
                    Report.median(rounds, round -> round.losersMs(99)),
                    Report.median(rounds, round -> round.losersMs(99.9)),
                    Report.median(rounds, WholeSaleRound::drainP50Ms),
                    Report.median(rounds, WholeSaleRound::drainP99Ms),
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
     * in a run without warm rounds). Cold rounds are measured against it too: a stack with no state has no cold sale of
     * its own, only a JVM still compiling, which is no limit of the machine's.
     */
    private Optional<Double> noOpLimit() {
        List<WholeSaleRound> limit =
                byDesign.containsKey(Design.NO_OP) ? byDesign.get(Design.NO_OP) : coldByDesign.get(Design.NO_OP);
        return Optional.ofNullable(limit)
                .map(rounds -> Report.median(rounds, round -> round.load().requestsPerSecond()));
    }

    /** The rounds' median requests/s as a share of {@code limit}. */
    private static Optional<Double> share(List<WholeSaleRound> rounds, Optional<Double> limit) {
        return limit.map(requestsPerSecond ->
                Report.median(rounds, round -> round.load().requestsPerSecond()) / requestsPerSecond);
    }

    /** Each round's figures, as the run printed them. */
    String rounds() {
        StringBuilder lines = new StringBuilder();
        coldByDesign.values().stream()
                .flatMap(List::stream)
                .forEach(round -> lines.append("cold ").append(line(round)).append('\n'));
        byDesign.values().stream().flatMap(List::stream).forEach(round -> lines.append(line(round)).append('\n'));
        return lines.toString();
    }

    static String line(WholeSaleRound round) {
        return String.format(
                Locale.ROOT,
                "round %d  %-11s answered in %6.2f s  %,9.0f req/s  winners p99 %7.2f ms  losers p99 %7.2f ms"
                        + "  drain p99 %6.0f ms  sold %,d  oversold %d  lost %d  over limit %d  drift %d",
                round.round(),
                round.design().label(),
                round.load().seconds(),
                round.load().requestsPerSecond(),
                round.winnersMs(99),
                round.losersMs(99),
                round.drainP99Ms(),
                round.sold(),
                round.oversold(),
                round.lost(),
                round.overLimit(),
                round.drift());
    }

    void write(Path directory, String heading) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(
                directory.resolve("report.md"),
                "# Whole sale, side by side\n\n" + heading + "\n\nCorrectness columns: the worst round.\n\n" + tables()
                        + "\nEvery round:\n\n```\n" + rounds() + "```\n\n![chart](chart.png)\n");
        ImageIO.write(chart(), "png", directory.resolve("chart.png").toFile());
    }

    private BufferedImage chart() {
        XYSeriesCollection throughput = new XYSeriesCollection();
        DefaultCategoryDataset latency = new DefaultCategoryDataset();
        for (Map.Entry<Design, List<WholeSaleRound>> design :
                (byDesign.isEmpty() ? coldByDesign : byDesign).entrySet()) {
            WholeSaleRound last = design.getValue().get(design.getValue().size() - 1);
            XYSeries series = new XYSeries(design.getKey().label());
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
                "Answers per second over the last round",
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
        for (Map.Entry<String, Map<Design, List<WholeSaleRound>>> kind :
                List.of(Map.entry("cold", coldByDesign), Map.entry("warm", byDesign))) {
            kind.getValue().forEach((design, rounds) -> share(rounds, noOpLimit())
                    .ifPresent(share -> shares.addValue(share * 100, design.label(), kind.getKey())));
        }
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
