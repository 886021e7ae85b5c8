package io.seckill.benchmark;

import com.zaxxer.hikari.HikariDataSource;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.redisstate.RedisConnections;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import redis.clients.jedis.UnifiedJedis;

/**
 * A whole flash sale, start to finish, against each design on the same servers with the same load generator: {@code
 * --units} over {@code --skus} SKUs, {@code --buyers} buyers making {@code --attempts} attempts each for 1-3 units, all
 * arriving as fast as {@code --connections} connections can send them (closed loop) or at {@code --rate} requests per
 * second (open loop). Per design: the time until every buyer had an answer, answered requests/s (a failed attempt is
 * counted and fails its round, never counted as speed), latency of winners and losers, the drain (answer to the order
 * seen decided in MySQL, {@link DecisionWatch}) and what the stores hold afterwards (oversold, lost, over the limit,
 * drift), and requests/s as a share of the no-op design's (the same HTTP stack answering 409 from memory: what the
 * machine can answer at all).
 *
 * <p>Cold as a deploy meets it: the servers first carry one unrecorded sale of every design (a broker, Redis and MySQL
 * that have served before, as in production), then each cold round starts every design's processes afresh and measures
 * their first sale, twice: as shipped (seckill's ingress and the no-op design warm themselves before they listen, the
 * other baselines do not), and on equal terms (no design's own warm-up; before its sale every design gets the same
 * number of untimed requests: {@code --equal-warmup-requests} buys of a sale of its own, and as many as seckill's
 * buyers spend getting their passes, which the designs without passes get as further buys). Then, on the last cold
 * round's processes, warm-up rounds and the warm rounds. Rounds interleave the designs; the report gives medians of
 * each kind of round (and the worst round's correctness) as tables, Markdown and a PNG chart under {@code
 * tools/benchmark/target/whole-sale-*}/report. Exits 1 when a round failed.
 */
@Command(
        name = "whole-sale",
        mixinStandardHelpOptions = true,
        description =
                "A whole flash sale against seckill, naive and redis-queue, each beside the no-op design's limit.")
public final class WholeSaleBenchmark implements Callable<Integer> {

    @Option(
            names = "--designs",
            split = ",",
            defaultValue = "seckill,naive,redis-queue,no-op",
            converter = Design.Converter.class,
            description = "designs to run (default ${DEFAULT-VALUE})")
    List<Design> designs;

    @Option(
            names = "--units",
            defaultValue = "1000",
            description = "units for sale, over all SKUs (default ${DEFAULT-VALUE})")
    int units;

    @Option(names = "--skus", defaultValue = "4", description = "SKUs (default ${DEFAULT-VALUE})")
    int skuCount;

    @Option(names = "--buyers", defaultValue = "50000", description = "buyers (default ${DEFAULT-VALUE})")
    int buyers;

    @Option(names = "--attempts", defaultValue = "2", description = "attempts per buyer (default ${DEFAULT-VALUE})")
    int attempts;

    @Option(
            names = "--limit",
            defaultValue = "3",
            description = "units per buyer and SKU (seckill's limit; default ${DEFAULT-VALUE})")
    int limit;

    @Option(
            names = "--connections",
            defaultValue = "64",
            description = "concurrent connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(
            names = "--rate",
            defaultValue = "0",
            description = "open loop at this many requests/s; 0: closed loop (default ${DEFAULT-VALUE})")
    double rate;

    @Option(
            names = "--cold-rounds",
            defaultValue = "3",
            description = "cold rounds, each a sale of freshly started processes as shipped and one on equal terms;"
                    + " their medians are the cold figures (default ${DEFAULT-VALUE})")
    int coldRounds;

    @Option(
            names = "--equal-warmup-requests",
            defaultValue = "20000",
            description = "untimed buys every design gets before a cold sale on equal terms, besides the pass"
                    + " requests' equal (default ${DEFAULT-VALUE}: what seckill's ingress sends itself as shipped)")
    int equalWarmUpRequests;

    @Option(
            names = "--servers-cold",
            description = "no unrecorded sale on the servers first: the first cold round meets a broker, Redis and"
                    + " MySQL that never served")
    boolean serversCold;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "warm rounds; their medians are the warm figures (default ${DEFAULT-VALUE})")
    int rounds;

    // Fewer leave seckill and redis-queue still getting faster from round to round as their JIT settles
    // (naive, bound by MySQL, settles sooner): the rounds would then measure the warm-up.
    @Option(
            names = "--warmup-rounds",
            defaultValue = "5",
            description = "unrecorded rounds after the cold ones, until every design runs at its steady speed (default"
                    + " ${DEFAULT-VALUE})")
    int warmupRounds;

    @Option(
            names = "--drain-timeout",
            defaultValue = "PT60S",
            description = "how long accepted orders may take to reach MySQL (default ${DEFAULT-VALUE})")
    Duration drainTimeout;

    @Option(
            names = "--seckill-java-opts",
            defaultValue = "-Xmx1g",
            description = "JVM options of seckill's process, e.g."
                    + " -XX:StartFlightRecording=filename=seckill.jfr,settings=profile (default ${DEFAULT-VALUE})")
    String seckillJavaOptions;

    @Option(
            names = "--seckill-topology",
            defaultValue = "ALL",
            description = "ALL: bin/seckill all, the services in one JVM; SERVICES: each service its own JVM (default"
                    + " ${DEFAULT-VALUE})")
    SeckillSaleDesign.Topology topology;

    @Option(
            names = "--seckill-setting",
            paramLabel = "NAME=VALUE",
            description =
                    "a setting of seckill's processes (docs/configuration.md), over the benchmark's own; repeatable,"
                            + " e.g. SECKILL_INGRESS_WARMUP_REQUESTS=0")
    Map<String, String> seckillSettings = new LinkedHashMap<>();

    @Option(
            names = "--aot-training",
            description =
                    "seckill's JVMs record an AOT cache each, <floor>/<module>/target/<module>.aot, written as they"
                            + " stop: bin/seckill starts them from it afterwards (bin/seckill train)")
    boolean aotTraining;

    @Mixin
    ServersOptions serversOptions;

    @Override
    public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<WholeSaleRound> rounds = run();
        WholeSaleReport report = new WholeSaleReport(rounds);
        System.out.println();
        System.out.println(report.tables());
        Path directory = serversOptions.work().resolve("report");
        report.write(directory, heading());
        System.out.println("report: " + directory.resolve("report.md") + " and " + directory.resolve("chart.png"));
        List<WholeSaleRound> failed = rounds.stream().filter(round -> !round.failures().isEmpty()).toList();
        failed.forEach(round -> System.out.println("FAILED: " + round.phase().label() + " round " + round.round()
                + " of " + round.design().label() + ": " + String.join(", ", round.failures())));
        int trained = aotTraining ? reportAotCaches() : 0;
        return failed.isEmpty() ? trained : 1;
    }

    /** Each trained module's cache, or the exit status of a training that left one without. */
    private int reportAotCaches() throws IOException {
        int status = 0;
        for (String module : topology.modules()) {
            Path cache = aotCache(module);
            if (Files.isRegularFile(cache)) {
                System.out.printf(Locale.ROOT, "AOT cache %s: %,d bytes%n", cache, Files.size(cache));
            } else {
                System.out.println("no AOT cache was written for " + module + " (" + cache + "): see its log under "
                        + serversOptions.logs());
                status = 1;
            }
        }
        return status;
    }

    /**
     * Where bin/seckill looks for a module's AOT cache: the services' under {@code services/}, the launcher's under
     * {@code tools/}.
     */
    private Path aotCache(String module) {
        String floor = "launcher".equals(module) ? "tools" : "services";
        return serversOptions.repository.toAbsolutePath().normalize().resolve(floor).resolve(module).resolve("target")
                .resolve(module + ".aot");
    }

    private String seckillJavaOptions(String module) {
        return aotTraining ? seckillJavaOptions + " -XX:AOTCacheOutput=" + aotCache(module) : seckillJavaOptions;
    }

    /**
     * Runs the sale with the options given, printing each round as it ends.
     * @return the recorded rounds (warm-up rounds left out): the cold ones, then the warm ones, every design's in the
     * order run
     */
    public List<WholeSaleRound> run() throws Exception {
        List<WholeSaleRound> results = new ArrayList<>();
        System.out.println(heading());
        try (DevelopmentServers servers = serversOptions.start("whole-sale");
                HikariDataSource database = ServersOptions.databasePool(servers);
                UnifiedJedis redis = RedisConnections.open(
                        InfraAddresses.ofMigrationAccount(new Env(servers.settings()))
                                .redis(),
                        2)) {
            SaleQueries queries = new SaleQueries(database);
            List<SaleDesign> running = new ArrayList<>();
            try {
                if (coldRounds > 0 && !serversCold) {
                    // A deploy meets servers that have served: one unrecorded sale of every design on them first.
                    running = startAll(designs, servers, queries, redis, true);
                    for (SaleDesign design : running) {
                        System.out.println("servers' warm-up " + WholeSaleReport.line(
                                runRound(design, 0, WholeSaleRound.Phase.WARM)));
                    }
                }
                for (int round = 1; round <= coldRounds; round++) {
                    // Each cold round starts with another design: the load generator, cold itself in the first
                    // round, favours none.
                    List<Design> order = new ArrayList<>(designs);
                    Collections.rotate(order, -(round - 1));
                    for (WholeSaleRound.Phase phase :
                            List.of(WholeSaleRound.Phase.COLD_AS_SHIPPED, WholeSaleRound.Phase.COLD_EQUAL)) {
                        closeAll(running);
                        boolean asShipped = phase == WholeSaleRound.Phase.COLD_AS_SHIPPED;
                        running = startAll(order, servers, queries, redis, asShipped);
                        for (SaleDesign design : running) {
                            if (phase == WholeSaleRound.Phase.COLD_EQUAL) {
                                equalWarmUp(design, round);
                            }
                            WholeSaleRound result = runRound(design, round, phase);
                            System.out.println(phase.label() + " " + WholeSaleReport.line(result));
                            results.add(result);
                        }
                    }
                }
                if (running.isEmpty()) {
                    running = startAll(designs, servers, queries, redis, true);
                }
                for (int round = 1 - warmupRounds; round <= rounds; round++) {
                    for (SaleDesign design : running) {
                        WholeSaleRound result = runRound(design, round, WholeSaleRound.Phase.WARM);
                        System.out.println((round < 1 ? "warm-up " : "") + WholeSaleReport.line(result));
                        if (round >= 1) {
                            results.add(result);
                        }
                    }
                }
            } finally {
                closeAll(running);
            }
        }
        return results;
    }

    /** @param ownWarmUps whether the designs warm themselves before they listen, as shipped */
    private List<SaleDesign> startAll(
            List<Design> order, DevelopmentServers servers, SaleQueries queries, UnifiedJedis redis, boolean ownWarmUps)
            throws Exception {
        List<SaleDesign> started = new ArrayList<>();
        for (Design design : order) {
            System.out.println("starting " + design.label() + (ownWarmUps ? "" : " without its own warm-up"));
            started.add(start(design, servers, queries, redis, ownWarmUps));
        }
        return started;
    }

    /**
     * The cold round on equal terms' warm-up: {@link #equalWarmUpRequests} untimed buys of a sale of the design's own,
     * plus, for a design whose buyers need no passes, as many buys as seckill's buyers spend getting theirs for the
     * round (a challenge and a pass for each buyer and SKU): every design has then served the same number of requests.
     */
    private void equalWarmUp(SaleDesign design, int round) throws Exception {
        List<Long> skus = skus();
        int unitsPerSku = units / skuCount;
        design.defineWarmUpSales(skus, unitsPerSku, limit);
        int passRequests = 2 * (int) attemptsOf(design.design(), "cold" + round, skus).stream()
                .map(attempt -> WholeSaleLoad.passKey(attempt.sku(), attempt.buyer()))
                .distinct()
                .count();
        int buys = equalWarmUpRequests + (design.needsPasses() ? 0 : passRequests);
        Random random = new Random(("equal-warm-up" + round).hashCode());
        List<WholeSaleLoad.Attempt> warmUp = new ArrayList<>(buys);
        for (int buy = 0; buy < buys; buy++) {
            warmUp.add(new WholeSaleLoad.Attempt(
                    design.design().label() + "-equal-warm-up" + round + "-" + buy / attempts,
                    skus.get(random.nextInt(skus.size())),
                    1 + random.nextInt(3)));
        }
        WholeSaleLoad.Outcome load = new WholeSaleLoad(
                        "localhost", design.port(), connections, WholeSaleLoad.BuyerHeaders.throughGateway())
                .run(warmUp, Map.of(), 0, order -> { });
        System.out.printf(
                Locale.ROOT,
                "equal warm-up %-11s %,d untimed buys in %.2f s (%,d answered, %,d failed)%s%n",
                design.design().label(),
                warmUp.size(),
                load.seconds(),
                load.winners().getTotalCount() + load.losers().getTotalCount(),
                load.failed(),
                design.needsPasses()
                        ? String.format(
                                Locale.ROOT, ", and its buyers' %,d pass requests before its sale", passRequests)
                        : "");
    }

    private static void closeAll(List<SaleDesign> running) {
        for (SaleDesign design : running) {
            design.close();
        }
        running.clear();
    }

    /** The sale's sizes and mode, as the run prints them and the report is headed. */
    private String heading() {
        String loop = rate > 0 ? String.format(Locale.ROOT, "open loop at %,.0f req/s", rate) : "closed loop";
        return String.format(
                Locale.ROOT,
                "%,d units over %d SKUs, %,d buyers x %d attempts (1-3 units each, limit %d), %d connections, %s, "
                        + "%d cold round(s) on fresh processes (as shipped, and on equal terms after %,d untimed buys"
                        + " each and the passes' equal)%s, then %d warm round(s) after %d warm-up round(s)",
                units,
                skuCount,
                buyers,
                attempts,
                limit,
                connections,
                loop,
                coldRounds,
                equalWarmUpRequests,
                serversCold ? " on servers that never served" : " on servers that served a sale of each design",
                rounds,
                warmupRounds);
    }

    private SaleDesign start(
            Design design, DevelopmentServers servers, SaleQueries queries, UnifiedJedis redis, boolean ownWarmUp)
            throws Exception {
        Path repository = serversOptions.repository.toAbsolutePath().normalize();
        Map<String, String> seckill = new LinkedHashMap<>(seckillSettings);
        Map<String, String> noOp = new LinkedHashMap<>(servers.settings());
        if (!ownWarmUp) {
            seckill.put("SECKILL_INGRESS_WARMUP_REQUESTS", "0");
            noOp.put("BASELINE_WARMUP_REQUESTS", "0");
        }
        return switch (design) {
            case SECKILL ->
                SeckillSaleDesign.start(
                        servers,
                        queries,
                        ServersOptions.freePort(),
                        topology,
                        this::seckillJavaOptions,
                        seckill);
            case NAIVE ->
                BaselineSaleDesign.start(
                        design,
                        repository,
                        servers.settings(),
                        serversOptions.logs(),
                        ServersOptions.freePort(),
                        queries,
                        null);
            case REDIS_QUEUE ->
                BaselineSaleDesign.start(
                        design,
                        repository,
                        servers.settings(),
                        serversOptions.logs(),
                        ServersOptions.freePort(),
                        queries,
                        redis);
            case NO_OP ->
                NoOpSaleDesign.start(repository, noOp, serversOptions.logs(), ServersOptions.freePort());
        };
    }

    /** {@link #skuCount} SKU ids no sale has used. */
    private List<Long> skus() {
        long firstSku = 6_000_000_000L + System.nanoTime() % 1_000_000_000L;
        List<Long> skus = new ArrayList<>();
        for (int i = 0; i < skuCount; i++) {
            skus.add(firstSku + i);
        }
        return skus;
    }

    private WholeSaleRound runRound(SaleDesign design, int round, WholeSaleRound.Phase phase) throws Exception {
        List<Long> skus = skus();
        int unitsPerSku = units / skuCount;
        design.defineSales(skus, unitsPerSku, limit);
        boolean cold = phase != WholeSaleRound.Phase.WARM;
        List<WholeSaleLoad.Attempt> attempts = attemptsOf(design.design(), (cold ? "cold" : "") + round, skus);
        // Buyers get their passes before the sale opens, as a real sale's do: not part of the timed load.
        long passesFrom = System.nanoTime();
        Map<String, String> passes = design.passes(attempts);
        if (!passes.isEmpty()) {
            double seconds = (System.nanoTime() - passesFrom) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    (cold ? "cold " : "")
                            + "round %d  %-11s %,d sale passes (challenge, solution, pass) in %.2f s, %,.0f/s, before"
                            + " the sale%n",
                    round,
                    design.design().label(),
                    passes.size(),
                    seconds,
                    passes.size() / seconds);
        }
        return WholeSaleRound.measure(
                design,
                round,
                phase,
                new WholeSaleLoad("localhost", design.port(), connections, WholeSaleLoad.BuyerHeaders.throughGateway()),
                attempts,
                passes,
                rate,
                skus,
                unitsPerSku,
                limit,
                drainTimeout.toMillis());
    }

    /** The same buyers, SKUs and quantities for every design in a round (a seed per round), in a shuffled order. */
    private List<WholeSaleLoad.Attempt> attemptsOf(Design design, String round, List<Long> skus) {
        Random random = new Random(round.hashCode());
        List<WholeSaleLoad.Attempt> all = new ArrayList<>(buyers * attempts);
        for (int buyer = 0; buyer < buyers; buyer++) {
            for (int attempt = 0; attempt < attempts; attempt++) {
                all.add(new WholeSaleLoad.Attempt(
                        design.label() + "-" + round + "-" + buyer,
                        skus.get(random.nextInt(skus.size())),
                        1 + random.nextInt(3)));
            }
        }
        Collections.shuffle(all, random);
        return all;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new WholeSaleBenchmark()).execute(args));
    }
}
