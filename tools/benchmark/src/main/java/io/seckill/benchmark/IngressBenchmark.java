package io.seckill.benchmark;

import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.processdriver.IngressAdmin;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Loads a running ingress (started with SECKILL_BENCHMARK_MODE=true) with three scenarios, round after
 * round: the no-op route (the ceiling: same server, same generator, no work), the sold-out path, and
 * the winning path (a fresh buyer per request, stock that never runs out). Prints req/s and
 * p50/p99/p999 of each, each as a ratio of the ceiling of the same round, then the medians.
 */
@Command(name = "ingress-benchmark", mixinStandardHelpOptions = true,
        description = "Closed-loop load against a running ingress; figures relative to its own no-op ceiling.")
public final class IngressBenchmark implements Callable<Integer> {

    /**
     * The targets of docs/benchmarks.md's table, as shares of the no-op ceiling (IngressBenchmarkTargetsTest holds them
     * together).
     */
    static final double SOLD_OUT_TARGET = 0.85;

    static final double WINNING_TARGET = 0.20;
    private static final int LOSERS = 10_000;

    @Mixin
    RunningIngress ingress;

    @Mixin
    LoadOptions options;

    @Override
    public Integer call() throws Exception {
        String hostHeader = ingress.hostHeader();
        if (IngressAdmin.status(HttpRequest.newBuilder(ingress.url.resolve("/bench/noop")).GET()) != 200) {
            System.err.println(
                    "GET /bench/noop did not answer 200: start the ingress with SECKILL_BENCHMARK_MODE=true");
            return 2;
        }
        long runId = System.currentTimeMillis() % 1_000_000_000L;
        long soldOutSku = 9_000_000_000L + runId * 2;
        long winningSku = soldOutSku + 1;
        TokenMinter tokens = ingress.tokens();
        IngressAdmin admin = ingress.admin();
        admin.defineSale(soldOutSku, 0);
        admin.defineSale(winningSku, 100_000_000);

        Duration lifetime = Duration.ofHours(2);
        byte[] noop = Scenario.get(hostHeader, "/bench/noop");
        // Losers are many distinct buyers, as in a real sale (one buyer would soon be rate limited).
        byte[][] soldOut = new byte[LOSERS][];
        for (int i = 0; i < LOSERS; i++) {
            soldOut[i] = Scenario.postJson(hostHeader, "/api/v1/skus/" + soldOutSku + "/orders",
                    "Bearer " + tokens.buyer("bench-loser-" + i, lifetime), "{\"quantity\":1}");
        }
        List<Scenario> scenarios = List.of(
                new Scenario("ceiling (no-op)", 200, n -> noop),
                new Scenario("sold-out path", 409, n -> soldOut[(int) (n % LOSERS)]),
                new Scenario(
                        "winning path",
                        202,
                        n -> Scenario.postJson(
                                hostHeader,
                                "/api/v1/skus/" + winningSku + "/orders",
                                "Bearer " + tokens.buyer("bench-" + runId + "-" + n, lifetime),
                                "{\"quantity\":1}")));

        System.out.printf("ingress %s, %d connections, %s measured after %s warm-up, %d round(s)%n",
                ingress.url, options.connections, options.duration, ingress.warmup, options.rounds);
        ClosedLoopLoad load = ingress.load(options.connections, options.duration);
        List<double[]> ratios = new ArrayList<>();
        List<List<ClosedLoopLoad.Result>> allRounds = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            List<ClosedLoopLoad.Result> results = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                results.add(load.run(scenario));
            }
            allRounds.add(results);
            double ceiling = results.get(0).requestsPerSecond();
            ratios.add(new double[] {
                results.get(1).requestsPerSecond() / ceiling, results.get(2).requestsPerSecond() / ceiling
            });
            System.out.printf("%nround %d%n", round);
            Report.table(results, ceiling);
        }
        System.out.printf("%nmedians over %d round(s)%n", options.rounds);
        Report.medians(allRounds);
        double soldOutRatio = Report.median(ratios.stream().mapToDouble(r -> r[0]).toArray());
        double winningRatio = Report.median(ratios.stream().mapToDouble(r -> r[1]).toArray());
        System.out.printf(
                Locale.ROOT,
                "%ntargets: sold-out path >= %.0f%% of ceiling: %s (%.1f%%); winning path >= %.0f%%: %s (%.1f%%)%n",
                SOLD_OUT_TARGET * 100,
                soldOutRatio >= SOLD_OUT_TARGET ? "met" : "MISSED",
                soldOutRatio * 100,
                WINNING_TARGET * 100,
                winningRatio >= WINNING_TARGET ? "met" : "MISSED",
                winningRatio * 100);
        return Report.everyAnswerExpected(allRounds) ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new IngressBenchmark()).execute(args));
    }
}
