package io.seckill.benchmark;

import io.seckill.buyeraccess.tokens.TokenMinter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Winners buying while the read routes are flooded: each round runs the winning path (a fresh buyer per request) alone,
 * then again beside a flood of order lists ({@code GET /api/v1/orders?skuId=}, which reach MySQL) from other
 * connections and buyers. Prints the winners' req/s, p50/p99/p999 and errors in both, and how the flood was answered
 * (by status) and how fast; then the medians.
 */
@Command(name = "flood-benchmark", mixinStandardHelpOptions = true,
        description = "The winning path alone and beside a flood of reads, against a running ingress.")
public final class FloodBenchmark implements Callable<Integer> {

    private static final String ROW = "%-26s %10s %9s %9s %9s %12s  %s%n";
    private static final int FLOODERS = 1_000;

    @Mixin
    RunningIngress ingress;

    @Option(
            names = "--flood-connections",
            defaultValue = "64",
            description = "connections flooding the read route (default ${DEFAULT-VALUE})")
    int floodConnections;

    @Mixin
    LoadOptions options;

    @Override
    public Integer call() throws Exception {
        String hostHeader = ingress.hostHeader();
        long runId = System.currentTimeMillis() % 1_000_000_000L;
        long sku = 9_500_000_000L + runId;
        TokenMinter tokens = ingress.tokens();
        ingress.admin().defineSale(sku, 100_000_000);
        Duration lifetime = Duration.ofHours(2);
        Scenario winners = new Scenario(
                "winning path",
                202,
                n -> Scenario.postJson(
                        hostHeader,
                        "/api/v1/skus/" + sku + "/orders",
                        "Bearer " + tokens.buyer("flood-bench-" + runId + "-" + n, lifetime),
                        "{\"quantity\":1}"));
        byte[][] lists = new byte[FLOODERS][];
        for (int i = 0; i < FLOODERS; i++) {
            lists[i] = Scenario.getAuthorized(
                    hostHeader, "/api/v1/orders?skuId=" + sku, "Bearer " + tokens.buyer("flooder-" + i, lifetime));
        }
        // The flood is answered, refused by the orders routes' limits or by the busy query pool: each is an answer.
        Scenario flood = new Scenario("flood: order lists", Set.of(200, 429, 503), n -> lists[(int) (n % FLOODERS)]);

        System.out.printf(
                "ingress %s: winners on %d connections, the flood on %d, %s measured after %s warm-up, %d round(s)%n",
                ingress.url, options.connections, floodConnections, options.duration, ingress.warmup, options.rounds);
        ClosedLoopLoad buyers = ingress.load(options.connections, options.duration);
        ClosedLoopLoad flooders = ingress.load(floodConnections, options.duration);
        List<List<ClosedLoopLoad.Result>> rounds = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            ClosedLoopLoad.Result alone = buyers.run(winners);
            CompletableFuture<ClosedLoopLoad.Result> flooding =
                    CompletableFuture.supplyAsync(() -> run(flooders, flood));
            ClosedLoopLoad.Result flooded = buyers.run(new Scenario("winning path, flooded", 202, winners.request()));
            List<ClosedLoopLoad.Result> results = List.of(alone, flooded, flooding.join());
            rounds.add(results);
            System.out.printf("%nround %d%n", round);
            table(results);
        }
        System.out.printf("%nmedians over %d round(s)%n", options.rounds);
        System.out.printf(ROW, "scenario", "req/s", "p50 ms", "p99 ms", "p999 ms", "bad/failed", "");
        for (int s = 0; s < 3; s++) {
            int index = s;
            System.out.printf(Locale.ROOT, ROW, rounds.get(0).get(s).scenario(),
                    format(Report.median(rounds, round -> round.get(index).requestsPerSecond()), 0),
                    format(Report.median(rounds, round -> round.get(index).percentileMillis(50)), 2),
                    format(Report.median(rounds, round -> round.get(index).percentileMillis(99)), 2),
                    format(Report.median(rounds, round -> round.get(index).percentileMillis(99.9)), 2),
                    format(Report.median(rounds, round -> round.get(index).unexpectedStatus()), 0) + "/"
                            + format(Report.median(rounds, round -> round.get(index).failures()), 0), "");
        }
        return Report.everyAnswerExpected(rounds) ? 0 : 1;
    }

    private static ClosedLoopLoad.Result run(ClosedLoopLoad load, Scenario scenario) {
        try {
            return load.run(scenario);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    private static void table(List<ClosedLoopLoad.Result> results) {
        System.out.printf(ROW, "scenario", "req/s", "p50 ms", "p99 ms", "p999 ms", "bad/failed", "answers by status");
        for (ClosedLoopLoad.Result result : results) {
            System.out.printf(
                    Locale.ROOT,
                    ROW,
                    result.scenario(),
                    format(result.requestsPerSecond(), 0),
                    format(result.percentileMillis(50), 2),
                    format(result.percentileMillis(99), 2),
                    format(result.percentileMillis(99.9), 2),
                    result.unexpectedStatus() + "/" + result.failures(),
                    statuses(result.statuses()));
        }
    }

    private static String statuses(Map<Integer, Long> statuses) {
        StringBuilder text = new StringBuilder();
        statuses.forEach((status, count) -> text.append(status)
                .append(": ")
                .append(String.format(Locale.ROOT, "%,d", count))
                .append("  "));
        return text.toString().trim();
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new FloodBenchmark()).execute(args));
    }
}
