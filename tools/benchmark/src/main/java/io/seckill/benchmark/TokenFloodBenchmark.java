package io.seckill.benchmark;

import com.zaxxer.hikari.HikariDataSource;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.SeckillProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A hostile buyer beside a sale: each round runs a sale alone, then the same sale again (a fresh SKU, fresh buyers)
 * while one buyer's valid token is sent {@code --flood-requests} ways (padded past its signature up to 8 KiB) at a
 * fixed rate. The services run as production runs them, each its own process, buyers showing bearer tokens, the
 * ingress's heap as compose gives it. Prints how the flood was answered (every request must be refused), the ingress's
 * heap after a full GC before and after the flood, and the sale's winners' p50/p99 alone and beside the flood with what
 * each sale sold and confirmed; then the medians. The per-address limit stays off (the sale's buyers share the
 * generator's one address); the flood names its own address in {@code X-Forwarded-For}, believed from the loopback
 * proxy.
 */
@Command(
        name = "token-flood",
        mixinStandardHelpOptions = true,
        description = "A sale alone and beside a flood of one buyer's token padded 100,000 ways.")
public final class TokenFloodBenchmark implements Callable<Integer> {

    private static final String INGRESS_HEAP = "-Xmx512m";
    private static final double MB = 1024.0 * 1024.0;
    /** The sale beside the flood starts once the flood has run this long. */
    private static final Duration FLOOD_HEAD_START = Duration.ofSeconds(2);
    private static final long DRAIN_TIMEOUT_MS = 60_000;
    private static final int BENCHMARK_ADDRESSES = 131_072;

    @Option(
            names = "--units",
            defaultValue = "1000",
            description = "units of each sale's SKU (default ${DEFAULT-VALUE})")
    int units;

    @Option(
            names = "--buyers",
            defaultValue = "10000",
            description = "buyers of each sale, each asking once for one unit (default ${DEFAULT-VALUE})")
    int buyers;

    @Option(
            names = "--connections",
            defaultValue = "32",
            description = "the sale's connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(
            names = "--flood-requests",
            defaultValue = "100000",
            description = "spellings of the token sent each round (default ${DEFAULT-VALUE})")
    int floodRequests;

    @Option(
            names = "--flood-rate",
            defaultValue = "5000",
            description = "the flood's fixed rate, requests/s (default ${DEFAULT-VALUE})")
    double floodRate;

    @Option(
            names = "--flood-connections",
            defaultValue = "16",
            description = "the flood's connections (default ${DEFAULT-VALUE})")
    int floodConnections;

    @Option(
            names = "--flood-addresses",
            defaultValue = "1",
            description = "client addresses the flood comes from, 1 to 131072 (default ${DEFAULT-VALUE}: one attacker)")
    int floodAddresses;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "recorded rounds; medians are reported (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(
            names = "--warmup-rounds",
            defaultValue = "1",
            description = "unrecorded rounds first (default ${DEFAULT-VALUE})")
    int warmupRounds;

    @Mixin
    ServersOptions serversOptions;

    /** One sale's figures: its winners' latency, how fast it was answered, what it sold and confirmed, orders lost. */
    private record Sale(
            double p50Ms,
            double p99Ms,
            double requestsPerSecond,
            long winners,
            long sold,
            long lost,
            List<String> failures) {

        static Sale of(WholeSaleRound round) {
            return new Sale(
                    round.winnersMs(50),
                    round.winnersMs(99),
                    round.load().requestsPerSecond(),
                    round.winners(),
                    round.sold(),
                    round.lost(),
                    round.failures());
        }
    }

    /**
     * One round: the sale alone, the sale beside the flood, the flood's answers and the ingress's heap before and after
     * it.
     */
    private record Round(Sale alone, Sale flooded, TokenFlood.Outcome flood, double heapBeforeMb, double heapAfterMb) {

        double heapGrowthMb() {
            return heapAfterMb - heapBeforeMb;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (floodAddresses < 1 || floodAddresses > BENCHMARK_ADDRESSES) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--flood-addresses must be 1 to " + BENCHMARK_ADDRESSES);
        }
        Map<String, String> settings = new HashMap<>();
        // Production's way of naming buyers, over the design's gateway.
        settings.put("SECKILL_AUTH_MODE", "token");
        settings.put("SECKILL_RATE_LIMIT_PER_ADDRESS", "0");
        settings.put("SECKILL_TRUSTED_PROXIES", "127.0.0.1");
        List<Round> recorded = new ArrayList<>();
        try (DevelopmentServers servers = serversOptions.start("token-flood");
                HikariDataSource database = ServersOptions.databasePool(servers);
                SeckillSaleDesign seckill = SeckillSaleDesign.start(
                        servers,
                        new SaleQueries(database),
                        ServersOptions.freePort(),
                        SeckillSaleDesign.Topology.SERVICES,
                        module -> module.equals("ingress-api") ? INGRESS_HEAP : "-Xmx1g",
                        settings)) {
            TokenMinter minter = TokenMinter.development(servers.settings().get(TokenSettings.SECRET));
            System.out.printf(
                    Locale.ROOT,
                    "each sale: %,d units, %,d buyers asking once, %d connections; the flood: one buyer's token %,d"
                            + " ways at %,.0f req/s on %d connections from %,d address(es); the ingress at %s%n",
                    units,
                    buyers,
                    connections,
                    floodRequests,
                    floodRate,
                    floodConnections,
                    floodAddresses,
                    INGRESS_HEAP);
            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                Round result = runRound(seckill, minter, round);
                System.out.println((round < 1 ? "warm-up " : "round " + round + " ") + line(result));
                if (round >= 1) {
                    recorded.add(result);
                }
            }
        }
        System.out.println();
        System.out.println(table(recorded));
        boolean broken = recorded.stream()
                .anyMatch(round -> round.flood().answered2xx() > 0
                        || round.alone().sold() != units
                        || round.flooded().sold() != units
                        || !round.alone().failures().isEmpty()
                        || !round.flooded().failures().isEmpty());
        return broken ? 1 : 0;
    }

    private Round runRound(SeckillSaleDesign seckill, TokenMinter minter, int round) throws Exception {
        Sale alone = sale(seckill, minter, "alone-" + round);
        SeckillProcess ingress = seckill.ingress();
        double heapBefore = heapAfterFullGcMb(ingress);
        long floodedSku = newSku();
        seckill.defineSplitSale(floodedSku, units, 1, null);
        String attacker = minter.buyer("attacker-" + round + "-" + System.nanoTime(), Duration.ofHours(1));
        CompletableFuture<TokenFlood.Outcome> flooding =
                CompletableFuture.supplyAsync(() -> flood(seckill.port(), floodedSku, attacker));
        TimeUnit.MILLISECONDS.sleep(FLOOD_HEAD_START.toMillis());
        Sale flooded = sale(seckill, minter, floodedSku, "flooded-" + round);
        TokenFlood.Outcome flood = flooding.join();
        return new Round(alone, flooded, flood, heapBefore, heapAfterFullGcMb(ingress));
    }

    private Sale sale(SeckillSaleDesign seckill, TokenMinter minter, String label) throws Exception {
        long sku = newSku();
        seckill.defineSplitSale(sku, units, 1, null);
        return sale(seckill, minter, sku, label);
    }

    /**
     * {@link #buyers} buyers, each with a token of their own minted beforehand, ask once each for one unit of {@code
     * sku}.
     */
    private Sale sale(SeckillSaleDesign seckill, TokenMinter minter, long sku, String label) throws Exception {
        List<WholeSaleLoad.Attempt> attempts = new ArrayList<>(buyers);
        Map<String, String> tokens = new HashMap<>();
        for (int buyer = 0; buyer < buyers; buyer++) {
            String name = label + "-" + sku + "-" + buyer;
            attempts.add(new WholeSaleLoad.Attempt(name, sku, 1));
            tokens.put(name, minter.buyer(name, Duration.ofHours(1)));
        }
        return Sale.of(WholeSaleRound.measure(
                seckill,
                0,
                WholeSaleRound.Phase.WARM,
                new WholeSaleLoad(
                        "localhost", seckill.port(), connections, WholeSaleLoad.BuyerHeaders.byTokens(tokens)),
                attempts,
                Map.of(),
                0,
                List.of(sku),
                units,
                1,
                DRAIN_TIMEOUT_MS));
    }

    private TokenFlood.Outcome flood(int port, long sku, String token) {
        try {
            return new TokenFlood("localhost", port, floodConnections)
                    .run(sku, token, floodAddresses, floodRequests, floodRate);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    private static long newSku() {
        return 8_000_000_000L + System.nanoTime() % 1_000_000_000L;
    }

    /** The ingress's heap in use right after a full collection ({@code jcmd GC.run}), from its own metrics. */
    private static double heapAfterFullGcMb(SeckillProcess ingress) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(ingress.pid()),
                        "GC.run")
                .redirectErrorStream(true)
                .start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd GC.run failed: " + output);
        }
        // jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 1.2345E7
        return ingress.metrics()
                        .lines()
                        .filter(line -> line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\""))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                        .sum()
                / MB;
    }

    private static String line(Round round) {
        TokenFlood.Outcome flood = round.flood();
        return String.format(
                Locale.ROOT,
                "alone: winners p50 %.2f p99 %.2f ms, %,.0f req/s, sold %,d, lost %d | beside the flood: winners p50"
                    + " %.2f p99 %.2f ms, %,.0f req/s, sold %,d, lost %d | flood: %,d sent in %.1f s, answers %s, no"
                    + " answer %d, p50 %.2f p99 %.2f ms | ingress heap after full GC %.1f -> %.1f MB (%+.1f)",
                round.alone().p50Ms(),
                round.alone().p99Ms(),
                round.alone().requestsPerSecond(),
                round.alone().sold(),
                round.alone().lost(),
                round.flooded().p50Ms(),
                round.flooded().p99Ms(),
                round.flooded().requestsPerSecond(),
                round.flooded().sold(),
                round.flooded().lost(),
                flood.statuses().values().stream().mapToLong(Long::longValue).sum() + flood.failed(),
                flood.seconds(),
                flood.statuses(),
                flood.failed(),
                flood.latency().getValueAtPercentile(50) / 1e6,
                flood.latency().getValueAtPercentile(99) / 1e6,
                round.heapBeforeMb(),
                round.heapAfterMb(),
                round.heapGrowthMb());
    }

    /** Medians of the recorded rounds, as Markdown. */
    private String table(List<Round> recorded) {
        StringBuilder table = new StringBuilder(
                "| sale | winners p50 / p99 ms | req/s | sold / units, lost (worst round) |\n|---|---|---|---|\n");
        table.append(String.format(
                Locale.ROOT,
                "| alone | %.2f / %.2f | %,.0f | %,d / %,d, %d |%n",
                median(recorded, round -> round.alone().p50Ms()),
                median(recorded, round -> round.alone().p99Ms()),
                median(recorded, round -> round.alone().requestsPerSecond()),
                recorded.stream().mapToLong(round -> round.alone().sold()).min().orElse(0),
                units,
                recorded.stream().mapToLong(round -> round.alone().lost()).max().orElse(0)));
        table.append(String.format(
                Locale.ROOT,
                "| beside the flood | %.2f / %.2f | %,.0f | %,d / %,d, %d |%n",
                median(recorded, round -> round.flooded().p50Ms()),
                median(recorded, round -> round.flooded().p99Ms()),
                median(recorded, round -> round.flooded().requestsPerSecond()),
                recorded.stream()
                        .mapToLong(round -> round.flooded().sold())
                        .min()
                        .orElse(0),
                units,
                recorded.stream()
                        .mapToLong(round -> round.flooded().lost())
                        .max()
                        .orElse(0)));
        table.append(String.format(
                Locale.ROOT,
                "%n| flood | accepted (all rounds) | refused 401 / 429 (median) | p50 / p99 ms | ingress heap growth"
                    + " after full GC, MB (median, worst) |%n|---|---|---|---|---|%n| %,d ways at %,.0f req/s from %,d"
                    + " address(es) | %d | %,.0f / %,.0f | %.2f / %.2f | %+.1f, %+.1f |%n",
                floodRequests,
                floodRate,
                floodAddresses,
                recorded.stream()
                        .mapToLong(round -> round.flood().answered2xx())
                        .sum(),
                median(recorded, round -> round.flood().statuses().getOrDefault(401, 0L)),
                median(recorded, round -> round.flood().statuses().getOrDefault(429, 0L)),
                median(recorded, round -> round.flood().latency().getValueAtPercentile(50) / 1e6),
                median(recorded, round -> round.flood().latency().getValueAtPercentile(99) / 1e6),
                median(recorded, Round::heapGrowthMb),
                recorded.stream().mapToDouble(Round::heapGrowthMb).max().orElse(0)));
        return table.toString();
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> figure) {
        return Report.median(rounds.stream().mapToDouble(figure).toArray());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TokenFloodBenchmark()).execute(args));
    }
}
