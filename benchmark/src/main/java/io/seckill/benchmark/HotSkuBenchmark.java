package io.seckill.benchmark;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.RedisAddress;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import redis.clients.jedis.UnifiedJedis;

/**
 * One hot SKU's sale on a Redis Cluster of three primaries, its stock in one bucket and then in the buckets the ingress
 * chooses (one per primary), rounds alternating the two on the same processes: how the sale's Redis calls spread over the
 * primaries (each primary's {@code INFO commandstats}, before and after the sale), with requests/s and latency. Every
 * buyer asks once for one unit; buyers are rate-limited per buyer as in production (the per-address limit stays off:
 * the generator is one address).
 */
@Command(name = "hot-sku", mixinStandardHelpOptions = true, description = "One SKU's sale on three Redis primaries: one bucket against the chosen buckets.")
public final class HotSkuBenchmark implements Callable<Integer> {

    /** The commands the benchmark sends itself, left out of the counts. */
    private static final List<String> OWN_COMMANDS = List.of("info", "config", "cluster");

    @Option(names = "--units", defaultValue = "3000", description = "units of the SKU (default ${DEFAULT-VALUE})")
    int units;

    @Option(names = "--buyers", defaultValue = "30000", description = "buyers, each asking once for one unit (default ${DEFAULT-VALUE})")
    int buyers;

    @Option(names = "--connections", defaultValue = "64", description = "concurrent connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--rounds", defaultValue = "3", description = "recorded rounds of each layout; medians are reported (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "1", description = "unrecorded rounds of each layout first (default ${DEFAULT-VALUE})")
    int warmupRounds;

    @Mixin
    ServersOptions serversOptions;

    /** A layout of the SKU's stock: a fixed number of buckets, or null for the ingress's choice. */
    private record Layout(String label, Integer stockBuckets) {
    }

    /** One round of one layout: the load's figures, the calls each primary served during it, and the stores' checks. */
    private record Round(Layout layout, double requestsPerSecond, double p50Ms, double p99Ms, double p999Ms, long[] callsPerPrimary,
                         long oversold, long lost, long overLimit, long drift) {

        double share(int primary) {
            long total = Arrays.stream(callsPerPrimary).sum();
            return total == 0 ? 0 : 100.0 * callsPerPrimary[primary] / total;
        }

        double maxShare() {
            return IntStream.range(0, callsPerPrimary.length).mapToDouble(this::share).max().orElse(0);
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Layout> layouts = List.of(new Layout("one bucket", 1), new Layout("default buckets", null));
        List<Round> recorded = new ArrayList<>();
        Map<String, String> cluster = Map.of("JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC", RedisAddress.TOPOLOGY, "cluster");
        try (DevelopmentServers servers = serversOptions.start("hot-sku", cluster);
             HikariDataSource database = pool(InfraAddresses.ofMigrationAccount(new Env(servers.settings())));
             UnifiedJedis redis = RedisConnections.open(InfraAddresses.ofMigrationAccount(new Env(servers.settings())).redis(), 2);
             SeckillSaleDesign seckill = SeckillSaleDesign.start(servers, new SaleQueries(database), freePort(), SeckillSaleDesign.Topology.ALL,
                     module -> "-Xmx1g", Map.of("SECKILL_RATE_LIMIT_PER_USER", "5"))) {
            List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(redis);
            System.out.printf(Locale.ROOT, "one SKU of %,d units, %,d buyers asking once, %d connections, on %d Redis primaries (%s)%n",
                    units, buyers, connections, primaries.size(), primaries);
            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                for (Layout layout : layouts) {
                    Round result = runRound(seckill, primaries, layout, round);
                    System.out.println((round < 1 ? "warm-up " : "round " + round + " ") + line(result));
                    if (round >= 1) {
                        recorded.add(result);
                    }
                }
            }
            System.out.println();
            System.out.println(table(layouts, recorded, primaries));
        }
        return recorded.stream().anyMatch(round -> round.oversold() + round.lost() + round.overLimit() + round.drift() > 0) ? 1 : 0;
    }

    private Round runRound(SeckillSaleDesign seckill, List<RedisPrimaries.Primary> primaries, Layout layout, int round) throws Exception {
        long sku = 7_000_000_000L + System.nanoTime() % 1_000_000_000L;
        seckill.defineSplitSale(sku, units, 1, layout.stockBuckets());
        List<WholeSaleLoad.Attempt> attempts = new ArrayList<>(buyers);
        for (int buyer = 0; buyer < buyers; buyer++) {
            attempts.add(new WholeSaleLoad.Attempt("hot-" + sku + "-" + buyer, sku, 1));
        }
        long[] before = calls(primaries);
        WholeSaleLoad.Outcome load = new WholeSaleLoad("localhost", seckill.port(), connections).run(attempts, Map.of(), 0);
        WholeSaleRound checked = WholeSaleRound.check(seckill, round, false, load, List.of(sku), units, 1, 60_000);
        long[] after = calls(primaries);
        long[] during = IntStream.range(0, primaries.size()).mapToLong(i -> after[i] - before[i]).toArray();
        Histogram all = load.winners().copy();
        all.add(load.losers());
        return new Round(layout, load.requestsPerSecond(), all.getValueAtPercentile(50) / 1e6, all.getValueAtPercentile(99) / 1e6,
                all.getValueAtPercentile(99.9) / 1e6, during, checked.oversold(), checked.lost(), checked.overLimit(), checked.drift());
    }

    /** Each primary's calls so far, of every command but the benchmark's own. */
    private static long[] calls(List<RedisPrimaries.Primary> primaries) {
        return primaries.stream().mapToLong(primary -> primary.info("commandstats").lines()
                .filter(line -> line.startsWith("cmdstat_"))
                .filter(line -> OWN_COMMANDS.stream().noneMatch(own -> line.startsWith("cmdstat_" + own + ":")))
                .mapToLong(HotSkuBenchmark::callsOf).sum()).toArray();
    }

    /** {@code cmdstat_evalsha:calls=12,usec=...}: the calls. */
    private static long callsOf(String line) {
        int at = line.indexOf("calls=") + "calls=".length();
        int end = line.indexOf(',', at);
        return Long.parseLong(line.substring(at, end < 0 ? line.length() : end));
    }

    private static String line(Round round) {
        StringBuilder shares = new StringBuilder();
        for (int i = 0; i < round.callsPerPrimary().length; i++) {
            shares.append(String.format(Locale.ROOT, " %5.1f%%", round.share(i)));
        }
        return String.format(Locale.ROOT, "%-16s %,9.0f req/s  p50 %6.2f  p99 %7.2f  p999 %7.2f ms  calls %,9d  shares%s  (oversold %d, lost %d, "
                        + "over limit %d, drift %d)", round.layout().label(), round.requestsPerSecond(), round.p50Ms(), round.p99Ms(), round.p999Ms(),
                Arrays.stream(round.callsPerPrimary()).sum(), shares, round.oversold(), round.lost(), round.overLimit(), round.drift());
    }

    /** Medians of the recorded rounds per layout, as a Markdown table. */
    private static String table(List<Layout> layouts, List<Round> recorded, List<RedisPrimaries.Primary> primaries) {
        StringBuilder table = new StringBuilder("| layout | req/s | p50 / p99 / p999 ms | Redis calls |");
        for (int i = 0; i < primaries.size(); i++) {
            table.append(" primary ").append(i + 1).append(" |");
        }
        table.append(" max share | oversold, lost, over limit, drift (worst round) |\n|---|---|---|---|");
        table.append("---|".repeat(primaries.size())).append("---|---|\n");
        for (Layout layout : layouts) {
            List<Round> of = recorded.stream().filter(round -> round.layout().equals(layout)).toList();
            table.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2f / %.2f / %.2f | %,.0f |", layout.label(), median(of, Round::requestsPerSecond),
                    median(of, Round::p50Ms), median(of, Round::p99Ms), median(of, Round::p999Ms),
                    median(of, round -> Arrays.stream(round.callsPerPrimary()).sum())));
            for (int i = 0; i < primaries.size(); i++) {
                int primary = i;
                table.append(String.format(Locale.ROOT, " %.1f%% |", median(of, round -> round.share(primary))));
            }
            table.append(String.format(Locale.ROOT, " %.1f%% | %d, %d, %d, %d |%n", median(of, Round::maxShare),
                    of.stream().mapToLong(Round::oversold).max().orElse(0), of.stream().mapToLong(Round::lost).max().orElse(0),
                    of.stream().mapToLong(Round::overLimit).max().orElse(0), of.stream().mapToLong(Round::drift).max().orElse(0)));
        }
        return table.toString();
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> figure) {
        double[] sorted = rounds.stream().mapToDouble(figure).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    private static HikariDataSource pool(InfraAddresses infra) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(infra.mysqlUrl());
        config.setUsername(infra.mysqlUser());
        config.setPassword(infra.mysqlPassword());
        config.setMaximumPoolSize(2);
        return new HikariDataSource(config);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new HotSkuBenchmark()).execute(args));
    }
}
