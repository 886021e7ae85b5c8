package io.seckill.benchmark;

import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.IngressAdmin;
import io.seckill.processdriver.SalePassClient;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.processdriver.ServiceEnvironment;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.SaleLayout;
import io.seckill.redisstate.SkuKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * seckill as a user runs it on the development servers: {@code bin/seckill all} (the four services in one process) or
 * each service its own process ({@link Topology}), buyers named by a gateway ({@code SECKILL_AUTH_MODE=trusted-header},
 * as the baselines read them), no rate limit (every request comes from one address).
 */
final class SeckillSaleDesign implements SaleDesign {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int PASS_GETTERS = 8;
    /** Low: here one process solves every buyer's puzzle, where a sale's buyers each solve one on their own machine. */
    private static final int PASS_DIFFICULTY = 8;

    /** How seckill's services are run: the modules whose jars run, each as one process. */
    enum Topology {
        /** {@code bin/seckill all}: the launcher runs the four services in one JVM. */
        ALL,
        /** Each service its own JVM, as production runs them; the ingress started last, once the rest are ready. */
        SERVICES;

        /** The jars' modules, the ingress (or the launcher that holds it) last. */
        List<String> modules() {
            return switch (this) {
                case ALL -> List.of("launcher");
                case SERVICES -> List.of("stream-processor", "db-sink", "reconciler", "ingress-api");
            };
        }

        /** The bin/seckill command that runs {@code module}. */
        static String command(String module) {
            return module.equals("launcher") ? "all" : module;
        }
    }

    /** Long enough for a JVM writing its AOT cache at exit (JDK 25 assembles it in a child JVM). */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);

    private final List<SeckillProcess> processes;
    private final SaleQueries queries;
    private final UnifiedJedis redis;
    private final IngressAdmin admin;
    private final int port;

    private SeckillSaleDesign(
            List<SeckillProcess> processes,
            SaleQueries queries,
            UnifiedJedis redis,
            int port,
            String adminTokenSecret) {
        this.processes = processes;
        this.queries = queries;
        this.redis = redis;
        this.port = port;
        this.admin = new IngressAdmin(
                ingress().adminUri(),
                TokenMinter.developmentAdmin(adminTokenSecret)
                        .admin("benchmark", TokenSettings.DEFAULT_ADMIN_MAX_LIFETIME));
    }

    /**
     * @param javaOptions each module's JVM options, e.g. a heap size and a flight recording
     * @param settings    settings of every process over the benchmark's (docs/configuration.md)
     */
    static SeckillSaleDesign start(
            DevelopmentServers servers,
            SaleQueries queries,
            int port,
            Topology topology,
            Function<String, String> javaOptions,
            Map<String, String> settings)
            throws InterruptedException {
        List<SeckillProcess> processes = new ArrayList<>();
        try {
            for (String module : topology.modules()) {
                // The servers' addresses given: the run command uses them instead of starting servers of its own.
                ServiceEnvironment environment = ServiceEnvironment.withJavaOptions(javaOptions.apply(module))
                        .settings(servers.settings())
                        .dataDirectory(servers.dataDirectory().resolveSibling("seckill-" + module))
                        .httpPort(port)
                        .buyersNamedByGateway(WholeSaleLoad.GATEWAY_SECRET)
                        .setting(PassSettings.DIFFICULTY, Integer.toString(PASS_DIFFICULTY))
                        .settings(settings);
                SeckillProcess process = servers.service("seckill-" + module, Topology.command(module), environment);
                processes.add(process);
                process.awaitReady(READY_TIMEOUT);
            }
        } catch (InterruptedException | RuntimeException e) {
            processes.forEach(SeckillProcess::close);
            throw e;
        }
        return new SeckillSaleDesign(
                processes,
                queries,
                RedisConnections.open(InfraAddresses.ofMigrationAccount(new Env(servers.settings())).redis(), 2),
                port,
                servers.settings().get(TokenSettings.ADMIN_SECRET));
    }

    /** The process that holds the ingress: started last. */
    SeckillProcess ingress() {
        return processes.get(processes.size() - 1);
    }

    @Override
    public Design design() {
        return Design.SECKILL;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void defineSales(List<Long> skus, int units, int perBuyer) throws Exception {
        for (long sku : skus) {
            admin.defineSale(sku, units, perBuyer, true);
        }
    }

    /** Bought without passes: a warm-up's buys go down the buy path, not the pass route's. */
    @Override
    public void defineWarmUpSales(List<Long> skus, int units, int perBuyer) throws Exception {
        for (long sku : skus) {
            defineSplitSale(sku, units, perBuyer, null);
        }
    }

    @Override
    public boolean needsPasses() {
        return true;
    }

    /**
     * Defines one sale open now, bought without passes, its stock over {@code stockBuckets} buckets (null: the ingress
     * chooses).
     */
    void defineSplitSale(long sku, int units, int perBuyer, Integer stockBuckets) throws Exception {
        admin.defineSale(sku, units, perBuyer, false, stockBuckets);
    }

    /** Defines a sale of {@code units} with a waiting room, selling from {@code startsAt}. */
    void defineSaleWithRoom(long sku, int units, Instant startsAt, int admissionPerSecond) throws Exception {
        admin.defineSaleWithRoom(sku, units, startsAt, admissionPerSecond);
    }

    /** The ingress's admin address and an admin token for it. */
    IngressAdmin admin() {
        return admin;
    }

    /** One pass per buyer and SKU, got over the buyers' port as a browser gets it, several at once. */
    @Override
    public Map<String, String> passes(List<WholeSaleLoad.Attempt> attempts) throws Exception {
        SalePassClient client = new SalePassClient(HTTP, URI.create("http://localhost:" + port));
        Map<String, String> passes = new ConcurrentHashMap<>();
        ExecutorService getters = Executors.newFixedThreadPool(PASS_GETTERS);
        try {
            Map<String, WholeSaleLoad.Attempt> buyersOfSkus = new LinkedHashMap<>();
            attempts.forEach(attempt ->
                    buyersOfSkus.putIfAbsent(WholeSaleLoad.passKey(attempt.sku(), attempt.buyer()), attempt));
            List<Future<?>> got = new ArrayList<>();
            buyersOfSkus.forEach((key, attempt) -> got.add(getters.submit(() -> {
                passes.put(
                        key,
                        client.passFor(
                                attempt.sku(),
                                Map.of(
                                        "X-Gateway-Secret",
                                        WholeSaleLoad.GATEWAY_SECRET,
                                        "X-User-Id",
                                        attempt.buyer())));
                return null;
            })));
            for (Future<?> pass : got) {
                pass.get();
            }
        } finally {
            getters.shutdownNow();
        }
        return passes;
    }

    /**
     * Decided in MySQL, confirmed or rejected (a rejection returned the stock: decided, not lost), with the sink's
     * time.
     */
    @Override
    public Map<String, Instant> committed(Collection<String> orderIds) throws Exception {
        return queries.committed("SELECT order_id, decided_at FROM orders WHERE order_id IN ({0})", orderIds);
    }

    @Override
    public Map<Long, Long> soldUnits(List<Long> skus) throws Exception {
        return queries.sums(
                "SELECT sku_id, SUM(quantity) FROM orders WHERE status IN ('CONFIRMED', 'PAID') AND sku_id IN ({0})"
                        + " GROUP BY sku_id",
                skus, Long.class);
    }

    /** From the orders themselves, not from the limit's own bookkeeping ({@code user_purchases}). */
    @Override
    public Map<String, Long> unitsPerBuyer(List<Long> skus) throws Exception {
        return queries.sums(
                "SELECT CONCAT(sku_id, ':', user_id), SUM(quantity) FROM orders WHERE status IN ('CONFIRMED', 'PAID')"
                        + " AND sku_id IN ({0}) GROUP BY sku_id, user_id",
                skus, String.class);
    }

    /**
     * Redis stock + pending reservations over every bucket - MySQL stock, each read from its store by the benchmark
     * (the key names are the Redis contract, {@link SkuKeys}), not from the admin's figures.
     */
    @Override
    public Map<Long, Long> drift(List<Long> skus) throws Exception {
        Map<Long, Long> mysqlStock = queries.sums("SELECT id, stock FROM sku WHERE id IN ({0})", skus, Long.class);
        Map<Long, Long> drift = new HashMap<>();
        for (long sku : skus) {
            int buckets = Math.max(1, SaleLayout.bucketsRecorded(redis.get(SkuKeys.layout(sku))));
            long redisHolds = 0;
            for (SkuKeys bucket : new SaleLayout(sku, buckets).all()) {
                redisHolds += number(redis.get(bucket.stock())) + number(redis.get(bucket.pending()));
            }
            drift.put(sku, redisHolds - mysqlStock.getOrDefault(sku, 0L));
        }
        return drift;
    }

    private static long number(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }

    /** Stops the processes, the ingress first, each given the time to finish (and write an AOT cache it records). */
    @Override
    public void close() {
        for (SeckillProcess process : processes.reversed()) {
            process.stopOrKill(STOP_TIMEOUT);
        }
        redis.close();
    }
}
