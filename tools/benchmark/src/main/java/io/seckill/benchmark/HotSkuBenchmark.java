package io.seckill.benchmark;

import com.zaxxer.hikari.HikariDataSource;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.RedisAddress;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.IntToDoubleFunction;
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
 * chooses (one per primary), rounds alternating the two on the same processes: how the sale's Redis calls spread over
 * the primaries, with requests/s and latency. A call is a script call ({@code EVALSHA}, {@code EVAL}: every call of the
 * buy path and of settlement is one), counted from each primary's {@code INFO commandstats} before and after the sale
 * (Redis counts the commands a script runs under their own names too; those are not calls); each primary's CPU from its
 * {@code INFO cpu}. Every buyer asks once for one unit; buyers are rate-limited per buyer as in production (the
 * per-address limit stays off: the generator is one address).
 */
@Command(
        name = "hot-sku",
        mixinStandardHelpOptions = true,
        description = "One SKU's sale on three Redis primaries: one bucket against the chosen buckets.")
public final class HotSkuBenchmark implements Callable<Integer> {

    /** The commands the benchmark sends itself, left out of the counts. */
    private static final List<String> OWN_COMMANDS = List.of("info", "config", "cluster");
    /** What a client's call of a script is counted as. */
    private static final List<String> SCRIPT_CALLS = List.of("evalsha", "eval");

    @Option(names = "--units", defaultValue = "3000", description = "units of the SKU (default ${DEFAULT-VALUE})")
    int units;

    @Option(
            names = "--buyers",
            defaultValue = "30000",
            description = "buyers, each asking once for one unit (default ${DEFAULT-VALUE})")
    int buyers;

    @Option(
            names = "--connections",
            defaultValue = "64",
            description = "concurrent connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "recorded rounds of each layout; medians are reported (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(
            names = "--warmup-rounds",
            defaultValue = "1",
            description = "unrecorded rounds of each layout first (default ${DEFAULT-VALUE})")
    int warmupRounds;

    @Mixin
    ServersOptions serversOptions;

    /** A layout of the SKU's stock: a fixed number of buckets, or null for the ingress's choice. */
    private record Layout(String label, Integer stockBuckets) {
    }

    /** Calls of one command and the microseconds Redis spent in them. */
    record CommandCost(long calls, long micros) {

        CommandCost minus(CommandCost before) {
            return new CommandCost(calls - before.calls, micros - before.micros);
        }
    }

    /**
     * One round of one layout: the load's figures, the script calls each primary served during it and the CPU seconds
     * it spent (each busiest first), what each command cost over all primaries, and the stores' checks.
     */
    private record Round(
            Layout layout,
            double requestsPerSecond,
            double p50Ms,
            double p99Ms,
            double p999Ms,
            List<Long> callsPerPrimary,
            List<Double> cpuPerPrimary,
            Map<String, CommandCost> commands,
            long oversold,
            long lost,
            long overLimit,
            long drift,
            List<String> failures) {

        long calls() {
            return callsPerPrimary.stream().mapToLong(Long::longValue).sum();
        }

        /** The share of the calls the {@code rank}-th busiest primary served (0: the busiest). */
        double share(int rank) {
            return calls() == 0 ? 0 : 100.0 * callsPerPrimary.get(rank) / calls();
        }

        /** The share of the primaries' CPU the {@code rank}-th busiest spent. */
        double cpuShare(int rank) {
            double total = cpuPerPrimary.stream().mapToDouble(Double::doubleValue).sum();
            return total == 0 ? 0 : 100.0 * cpuPerPrimary.get(rank) / total;
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Layout> layouts = List.of(new Layout("one bucket", 1), new Layout("default buckets", null));
        List<Round> recorded = new ArrayList<>();
        Map<String, String> cluster = Map.of("JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC", RedisAddress.TOPOLOGY, "cluster");
        try (DevelopmentServers servers = serversOptions.start("hot-sku", cluster);
                HikariDataSource database = ServersOptions.databasePool(servers);
                UnifiedJedis redis = RedisConnections.open(
                        InfraAddresses.ofMigrationAccount(new Env(servers.settings()))
                                .redis(),
                        2);
                SeckillSaleDesign seckill = SeckillSaleDesign.start(
                        servers,
                        new SaleQueries(database),
                        ServersOptions.freePort(),
                        SeckillSaleDesign.Topology.ALL,
                        module -> "-Xmx1g",
                        Map.of("SECKILL_RATE_LIMIT_PER_USER", "5"))) {
            List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(redis);
            System.out.printf(
                    Locale.ROOT,
                    "one SKU of %,d units, %,d buyers asking once, %d connections, on %d Redis primaries (%s)%n",
                    units,
                    buyers,
                    connections,
                    primaries.size(),
                    primaries);
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
        return recorded.stream()
                        .anyMatch(round -> !round.failures().isEmpty())
                ? 1
                : 0;
    }

    private Round runRound(SeckillSaleDesign seckill, List<RedisPrimaries.Primary> primaries, Layout layout, int round)
            throws Exception {
        long sku = 7_000_000_000L + System.nanoTime() % 1_000_000_000L;
        seckill.defineSplitSale(sku, units, 1, layout.stockBuckets());
        List<WholeSaleLoad.Attempt> attempts = new ArrayList<>(buyers);
        for (int buyer = 0; buyer < buyers; buyer++) {
            attempts.add(new WholeSaleLoad.Attempt("hot-" + sku + "-" + buyer, sku, 1));
        }
        List<Map<String, CommandCost>> before = commandStats(primaries);
        List<Double> cpuBefore = cpuSeconds(primaries);
        WholeSaleRound checked = WholeSaleRound.measure(
                seckill,
                round,
                WholeSaleRound.Phase.WARM,
                new WholeSaleLoad(
                        "localhost", seckill.port(), connections, WholeSaleLoad.BuyerHeaders.throughGateway()),
                attempts,
                Map.of(),
                0,
                List.of(sku),
                units,
                1,
                60_000);
        WholeSaleLoad.Outcome load = checked.load();
        List<Map<String, CommandCost>> after = commandStats(primaries);
        List<Double> cpuAfter = cpuSeconds(primaries);
        List<Double> cpu = IntStream.range(0, primaries.size())
                .mapToObj(i -> cpuAfter.get(i) - cpuBefore.get(i))
                .sorted(Comparator.reverseOrder())
                .toList();
        List<Map<String, CommandCost>> during = IntStream.range(0, primaries.size())
                .mapToObj(i -> difference(after.get(i), before.get(i)))
                .toList();
        List<Long> callsPerPrimary = during.stream()
                .map(stats -> SCRIPT_CALLS.stream()
                        .mapToLong(command -> stats.getOrDefault(command, new CommandCost(0, 0))
                                .calls())
                        .sum())
                .sorted(Comparator.reverseOrder())
                .toList();
        Map<String, CommandCost> commands = new TreeMap<>();
        during.forEach(stats -> stats.forEach((command, cost) -> commands.merge(command, cost,
                (a, b) -> new CommandCost(a.calls() + b.calls(), a.micros() + b.micros()))));
        Histogram all = load.winners().copy();
        all.add(load.losers());
        return new Round(
                layout,
                load.requestsPerSecond(),
                all.getValueAtPercentile(50) / 1e6,
                all.getValueAtPercentile(99) / 1e6,
                all.getValueAtPercentile(99.9) / 1e6,
                callsPerPrimary,
                cpu,
                commands,
                checked.oversold(),
                checked.lost(),
                checked.overLimit(),
                checked.drift(),
                checked.failures());
    }

    /** Each primary's commands so far, every command but the benchmark's own. */
    static List<Map<String, CommandCost>> commandStats(List<RedisPrimaries.Primary> primaries) {
        return primaries.stream().map(primary -> {
            Map<String, CommandCost> stats = new TreeMap<>();
            // cmdstat_evalsha:calls=12,usec=340,usec_per_call=28.33,...
            primary.info("commandstats").lines().filter(line -> line.startsWith("cmdstat_")).forEach(line -> {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                if (!OWN_COMMANDS.contains(command)) {
                    stats.put(command, new CommandCost(field(line, "calls="), field(line, "usec=")));
                }
            });
            return stats;
        }).toList();
    }

    /** Each primary's CPU seconds so far, user and system. */
    private static List<Double> cpuSeconds(List<RedisPrimaries.Primary> primaries) {
        return primaries.stream().map(primary -> primary.info("cpu").lines()
                .filter(line -> line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim())).sum()).toList();
    }

    private static long field(String line, String name) {
        int at = line.indexOf(name) + name.length();
        int end = line.indexOf(',', at);
        return Long.parseLong(line.substring(at, end < 0 ? line.length() : end));
    }

    private static Map<String, CommandCost> difference(
            Map<String, CommandCost> after, Map<String, CommandCost> before) {
        Map<String, CommandCost> difference = new TreeMap<>();
        after.forEach((command, cost) ->
                difference.put(command, cost.minus(before.getOrDefault(command, new CommandCost(0, 0)))));
        difference.values().removeIf(cost -> cost.calls() == 0);
        return difference;
    }

    private static String line(Round round) {
        StringBuilder shares = new StringBuilder();
        for (int i = 0; i < round.callsPerPrimary().size(); i++) {
            shares.append(String.format(Locale.ROOT, " %5.1f%%", round.share(i)));
        }
        shares.append(", CPU");
        for (int i = 0; i < round.cpuPerPrimary().size(); i++) {
            shares.append(String.format(Locale.ROOT, " %5.1f%%", round.cpuShare(i)));
        }
        StringBuilder commands = new StringBuilder();
        round.commands()
                .forEach((command, cost) -> commands.append(String.format(
                        Locale.ROOT,
                        " %s %,d (%.1f us)",
                        command,
                        cost.calls(),
                        (double) cost.micros() / cost.calls())));
        return String.format(
                Locale.ROOT,
                "%-16s %,9.0f req/s  p50 %6.2f  p99 %7.2f  p999 %7.2f ms  script calls %,9d  shares, busiest first%s "
                        + " (oversold %d, lost %d, over limit %d, drift %d)%n    calls by command:%s",
                round.layout().label(),
                round.requestsPerSecond(),
                round.p50Ms(),
                round.p99Ms(),
                round.p999Ms(),
                round.calls(),
                shares,
                round.oversold(),
                round.lost(),
                round.overLimit(),
                round.drift(),
                commands);
    }

    /** Medians of the recorded rounds per layout, as a Markdown table. */
    private static String table(List<Layout> layouts, List<Round> recorded, List<RedisPrimaries.Primary> primaries) {
        StringBuilder table = new StringBuilder(
                "| layout | req/s | p50 / p99 / p999 ms | script calls | calls: busiest primary, next, next | CPU:"
                        + " busiest primary, next, next | oversold, lost, over limit, drift (worst round) |\n"
                        + "|---|---|---|---|---|---|---|\n");
        for (Layout layout : layouts) {
            List<Round> of = recorded.stream().filter(round -> round.layout().equals(layout)).toList();
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %,.0f | %.2f / %.2f / %.2f | %,.0f |",
                    layout.label(),
                    median(of, Round::requestsPerSecond),
                    median(of, Round::p50Ms),
                    median(of, Round::p99Ms),
                    median(of, Round::p999Ms),
                    median(of, Round::calls)));
            table.append(' ')
                    .append(shares(primaries.size(), rank -> median(of, round -> round.share(rank))))
                    .append(" |");
            table.append(' ')
                    .append(shares(primaries.size(), rank -> median(of, round -> round.cpuShare(rank))))
                    .append(" |");
            table.append(String.format(
                    Locale.ROOT,
                    " %d, %d, %d, %d |%n",
                    of.stream().mapToLong(Round::oversold).max().orElse(0),
                    of.stream().mapToLong(Round::lost).max().orElse(0),
                    of.stream().mapToLong(Round::overLimit).max().orElse(0),
                    of.stream().mapToLong(Round::drift).max().orElse(0)));
        }
        return table.toString();
    }

    private static String shares(int primaries, IntToDoubleFunction share) {
        return String.join(
                ", ",
                IntStream.range(0, primaries)
                        .mapToObj(rank -> String.format(Locale.ROOT, "%.1f%%", share.applyAsDouble(rank)))
                        .toList());
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> figure) {
        return Report.median(rounds.stream().mapToDouble(figure).toArray());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new HotSkuBenchmark()).execute(args));
    }
}
