package io.seckill.e2e.processes;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.ingress.HttpApi;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.mysqlstate.Database;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.processdriver.ServiceEnvironment;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.SaleStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import redis.clients.jedis.UnifiedJedis;

/**
 * Development servers and service processes started the way docs/operations.md says, each its own OS
 * process, plus the test's own clients of the servers to check what the processes did. Data, logs
 * and settings live under {@code target/processes/NAME-*}.
 */
final class ProcessCluster implements AutoCloseable {

    static final Path REPOSITORY = SeckillProcess.repositoryOfModuleUnderTest();
    /** Small heaps and the quick compiler: a dozen JVMs share two cores in these tests. */
    private static final String JAVA_OPTS = "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final DevelopmentServers servers;
    private final ServiceEnvironment environment;
    private final List<SeckillProcess> processes = new ArrayList<>();
    final InfraAddresses infra;
    final Database database;
    final UnifiedJedis redis;
    final SaleStore saleStore;

    private ProcessCluster(DevelopmentServers servers, ServiceEnvironment environment) {
        this.servers = servers;
        this.environment = environment;
        // As the migration account and the Kafka operator: the harness stages what no service may.
        this.infra = InfraAddresses.ofMigrationAccount(new Env(servers.settings()));
        this.database = Database.connect(infra, "process-test", 4, new SimpleMeterRegistry());
        this.redis = RedisConnections.open(infra.redis(), 8);
        this.saleStore = new SaleStore(new LuaRunner(redis));
    }

    /** Starts the servers; services started later get {@code settings} over the test defaults. */
    static ProcessCluster start(String name, Map<String, String> settings) throws InterruptedException {
        Path root = REPOSITORY.resolve("e2e/target/processes").resolve(name + "-" + UUID.randomUUID());
        ServiceEnvironment environment = serviceSettings(JAVA_OPTS).settings(settings);
        DevelopmentServers servers = DevelopmentServers.start(REPOSITORY, root.resolve("data"), root.resolve("logs"),
                Map.of("JAVA_OPTS", "-Xmx768m -XX:+UseSerialGC"));
        return new ProcessCluster(servers, environment);
    }

    /**
     * What every service process of these tests runs with: free ports, the test credentials
     * ({@link HttpApi} signs with them), no rate limits (every buyer comes from one address), a short warm-up.
     */
    static ServiceEnvironment serviceSettings(String javaOptions) {
        return ServiceEnvironment.withJavaOptions(javaOptions)
                .tokenSecrets(HttpApi.TOKEN_SECRET, HttpApi.ADMIN_TOKEN_SECRET)
                .setting(WarmUpSettings.REQUESTS, "100");
    }

    /** Starts {@code bin/seckill command} as a process named {@code name}; does not wait. */
    SeckillProcess launch(String name, String command) {
        SeckillProcess process = servers.service(name, command, environment);
        processes.add(process);
        return process;
    }

    /**
     * Starts {@code bin/seckill command} as a process named {@code name}, with {@code settings} over the cluster's;
     * does not wait.
     */
    SeckillProcess launch(String name, String command, Map<String, String> settings) {
        SeckillProcess process = servers.service(
                name,
                command,
                serviceSettings(JAVA_OPTS).settings(environment.asMap()).settings(settings));
        processes.add(process);
        return process;
    }

    /** One process of each service, started and ready. */
    record OneOfEach(SeckillProcess streams, SeckillProcess sink, SeckillProcess reconciler, SeckillProcess ingress) {

        List<SeckillProcess> all() {
            return List.of(streams, sink, reconciler, ingress);
        }

        /** The buyers' API of the ingress. */
        HttpApi http() {
            return buyersApi(ingress);
        }
    }

    OneOfEach launchOneOfEach() throws InterruptedException {
        OneOfEach services = new OneOfEach(launch("stream-processor", "stream-processor"), launch("db-sink", "db-sink"),
                launch("reconciler", "reconciler"), launch("ingress-api", "ingress-api"));
        awaitReady(services.all().toArray(SeckillProcess[]::new));
        return services;
    }

    /** Waits until every given process answers /ready with 200. */
    static void awaitReady(SeckillProcess... processes) throws InterruptedException {
        for (SeckillProcess process : processes) {
            process.awaitReady(READY_TIMEOUT);
        }
    }

    /** The buyers' and the admin's API of a ready ingress process. */
    static HttpApi buyersApi(SeckillProcess ingress) {
        return new HttpApi(ingress.buyersPort().orElseThrow(), ingress.adminPort().orElseThrow());
    }

    SeckillProcess servers() {
        return servers.process();
    }

    @Override
    public void close() {
        for (SeckillProcess process : processes) {
            process.close();
        }
        redis.close();
        database.close();
        servers.close();
    }
}
