package io.seckill.benchmark;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Database;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.IngressAdmin;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.processdriver.ServiceEnvironment;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.jooq.Record2;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Decided orders per second of the whole pipeline, and the time from an order's acceptance to its
 * decision in MySQL (p50/p99), with 1 vs 3 stream-processors and 1 vs 2 db-sinks: each service its own
 * process ({@code bin/seckill}), one ingress loaded closed-loop with winning buys over 8 SKUs for the
 * measured time, then drained. Figures come from MySQL: the orders' {@code requested_at} (set by the
 * ingress when it accepts) and {@code decided_at} (the sink's commit).
 */
@Command(name = "pipeline-scaling", mixinStandardHelpOptions = true,
        description = "Decided orders/s and 202 -> decided latency with more stream-processor and db-sink processes.")
public final class PipelineScalingBenchmark implements Callable<Integer> {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final String TOKEN_SECRET = "pipeline-scaling-benchmark-secret-0123456789";
    private static final TokenMinter TOKENS = TokenMinter.development(TOKEN_SECRET);
    private static final String ADMIN_TOKEN_SECRET = "pipeline-scaling-benchmark-admin-secret-0123456789";
    private static final int SKUS = 8;
    private static final String ROW = "%-22s %12s %12s %10s %10s%n";

    @Option(names = "--setups", split = ",", defaultValue = "1x1,3x1,1x2",
            description = "stream-processors x db-sinks per setup (default ${DEFAULT-VALUE})")
    List<String> setups;

    @Mixin
    LoadOptions options;

    @Mixin
    ServersOptions serversOptions;

    @Override
    public Integer call() throws Exception {
        Map<String, List<Figures>> results = new HashMap<>();
        try (DevelopmentServers servers = serversOptions.start("pipeline-scaling")) {
            InfraAddresses infra = InfraAddresses.ofMigrationAccount(new Env(servers.settings()));
            try (Database database = Database.connect(infra, "pipeline-scaling", 2, new SimpleMeterRegistry())) {
                for (String setup : setups) {
                    results.put(setup, runSetup(servers, database, setup));
                }
            }
        }
        System.out.printf(
                "%nmedians over %d round(s), %d connections, %s loaded per round (logs: %s)%n",
                options.rounds, options.connections, options.duration, serversOptions.logs());
        System.out.printf(ROW, "streams x sinks", "accepted/s", "decided/s", "p50 ms", "p99 ms");
        double baseline = Report.median(results.get(setups.get(0)), Figures::decidedPerSecond);
        for (String setup : setups) {
            List<Figures> figures = results.get(setup);
            double decided = Report.median(figures, Figures::decidedPerSecond);
            System.out.printf(
                    Locale.ROOT,
                    ROW,
                    setup + " (" + String.format(Locale.ROOT, "%.2fx", decided / baseline) + ")",
                    format(Report.median(figures, Figures::acceptedPerSecond)),
                    format(decided),
                    format(Report.median(figures, Figures::p50Millis)),
                    format(Report.median(figures, Figures::p99Millis)));
        }
        return 0;
    }

    private List<Figures> runSetup(DevelopmentServers servers, Database database, String setup) throws Exception {
        String[] counts = setup.split("x", -1);
        int streams = Integer.parseInt(counts[0]);
        int sinks = Integer.parseInt(counts[1]);
        ServiceEnvironment settings = ServiceEnvironment.withJavaOptions("-Xmx512m -XX:+UseSerialGC")
                .tokenSecrets(TOKEN_SECRET, ADMIN_TOKEN_SECRET);
        List<SeckillProcess> processes = new ArrayList<>();
        try {
            for (int i = 0; i < streams; i++) {
                processes.add(servers.service(setup + "-stream-processor-" + i, "stream-processor", settings));
            }
            for (int i = 0; i < sinks; i++) {
                processes.add(servers.service(setup + "-db-sink-" + i, "db-sink", settings));
            }
            processes.add(servers.service(setup + "-reconciler", "reconciler", settings));
            SeckillProcess ingress = servers.service(setup + "-ingress-api", "ingress-api", settings);
            processes.add(ingress);
            StringBuilder readiness =
                    new StringBuilder(setup + " ready after (s, from process start, all starting at once):");
            for (SeckillProcess process : processes) {
                process.awaitReady(READY_TIMEOUT);
                readiness.append(String.format(Locale.ROOT, " %s %.1f", process.name().substring(setup.length() + 1),
                        Duration.between(process.started(), Instant.now()).toMillis() / 1000.0));
            }
            System.out.println(readiness);
            int port = ingress.buyersPort().orElseThrow();
            IngressAdmin admin = new IngressAdmin(
                    ingress.adminUri(),
                    TokenMinter.developmentAdmin(ADMIN_TOKEN_SECRET)
                            .admin("benchmark", TokenSettings.DEFAULT_ADMIN_MAX_LIFETIME));
            List<Figures> figures = new ArrayList<>();
            for (int round = 1; round <= options.rounds; round++) {
                Figures result = round(database, admin, port);
                figures.add(result);
                System.out.printf(
                        Locale.ROOT,
                        "%s round %d: %,.0f accepted/s, %,.0f decided/s, p50 %.1f ms, p99 %.1f ms%n",
                        setup,
                        round,
                        result.acceptedPerSecond(),
                        result.decidedPerSecond(),
                        result.p50Millis(),
                        result.p99Millis());
            }
            return figures;
        } finally {
            for (SeckillProcess process : processes) {
                process.stopOrKill(Duration.ofSeconds(60));
            }
        }
    }

    /** One loaded period on fresh SKUs, then waits for every accepted order to be decided. */
    private Figures round(Database database, IngressAdmin admin, int port) throws Exception {
        long firstSku = 8_000_000_000L + System.currentTimeMillis() % 1_000_000_000L * 10;
        for (int i = 0; i < SKUS; i++) {
            admin.defineSale(firstSku + i, 100_000_000);
        }
        String host = "localhost:" + port;
        Scenario winning = new Scenario(
                "winning",
                202,
                n -> Scenario.postJson(
                        host,
                        "/api/v1/skus/" + (firstSku + n % SKUS) + "/orders",
                        "Bearer " + TOKENS.buyer("scaling-" + firstSku + "-" + n, Duration.ofHours(2)),
                        "{\"quantity\":1}"));
        ClosedLoopLoad.Result load = new ClosedLoopLoad(
                        "localhost", port, options.connections, Duration.ZERO, options.duration)
                .run(winning);
        if (!load.clean()) {
            throw new IllegalStateException("the winning load got answers other than 202: " + load.statuses() + ", "
                    + load.failures() + " failed");
        }
        long accepted = load.latencies().getTotalCount();
        List<String> skuIds = LongStream.range(firstSku, firstSku + SKUS).mapToObj(Long::toString).toList();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        // Every accepted order has an outbox row, closed in the transaction that decides it.
        while (database.dsl().fetchCount(OUTBOX, OUTBOX.AGGREGATEID.in(skuIds).and(OUTBOX.COMPLETED_AT.isNull())) > 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("orders still undecided 5 minutes after the load");
            }
            Thread.sleep(500);
        }
        List<Record2<Instant, Instant>> decided = database.dsl()
                .select(ORDERS.REQUESTED_AT, ORDERS.DECIDED_AT)
                .from(ORDERS)
                .where(ORDERS.SKU_ID.between(firstSku, firstSku + SKUS - 1))
                .and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .fetch();
        if (decided.size() < accepted) {
            throw new IllegalStateException(accepted + " orders accepted, only " + decided.size() + " confirmed");
        }
        Instant first = decided.stream().map(Record2::value1).min(Instant::compareTo).orElseThrow();
        Instant last = decided.stream().map(Record2::value2).max(Instant::compareTo).orElseThrow();
        Histogram latenciesMicros = new Histogram(3);
        for (Record2<Instant, Instant> row : decided) {
            long micros = Duration.between(row.value1(), row.value2()).toNanos() / 1_000;
            if (micros < 0) {
                throw new IllegalStateException("an order decided before it was requested: " + row);
            }
            latenciesMicros.recordValue(micros);
        }
        return new Figures(load.requestsPerSecond(), decided.size() / (Duration.between(first, last).toNanos() / 1e9),
                latenciesMicros.getValueAtPercentile(50) / 1e3, latenciesMicros.getValueAtPercentile(99) / 1e3);
    }


    private static String format(double value) {
        return String.format(Locale.ROOT, "%,.1f", value);
    }

    private record Figures(double acceptedPerSecond, double decidedPerSecond, double p50Millis, double p99Millis) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PipelineScalingBenchmark()).execute(args));
    }
}
