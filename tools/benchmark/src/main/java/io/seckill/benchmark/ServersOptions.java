package io.seckill.benchmark;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.processdriver.DevelopmentServers;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where a benchmark that runs its own development servers finds bin/seckill, and the folder under
 * {@code tools/benchmark/target/} that holds the servers' data and every process's log.
 */
final class ServersOptions {

    @Option(
            names = "--repository",
            defaultValue = ".",
            description = "the working copy with bin/seckill, built (default: here)")
    Path repository;

    private Path work;

    /** Starts {@code bin/seckill servers} in a fresh folder named after the benchmark. */
    DevelopmentServers start(String benchmark) throws InterruptedException {
        return start(benchmark, Map.of("JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC"));
    }

    /** The same, with the servers command's environment given (e.g. a Redis Cluster's topology). */
    DevelopmentServers start(String benchmark, Map<String, String> environment) throws InterruptedException {
        Path root = repository.toAbsolutePath().normalize();
        work = root.resolve("tools/benchmark/target/" + benchmark + "-" + System.currentTimeMillis());
        return DevelopmentServers.start(root, work.resolve("data"), logs(), environment);
    }

    /** The benchmark's folder under {@code tools/benchmark/target/}. */
    Path work() {
        return work;
    }

    Path logs() {
        return work.resolve("logs");
    }

    /** A small pool on the servers' database, as the migration account (the benchmarks read every table). */
    static HikariDataSource databasePool(DevelopmentServers servers) {
        InfraAddresses infra = InfraAddresses.ofMigrationAccount(new Env(servers.settings()));
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(infra.mysqlUrl());
        config.setUsername(infra.mysqlUser());
        config.setPassword(infra.mysqlPassword());
        config.setMaximumPoolSize(2);
        return new HikariDataSource(config);
    }

    /** A port free on this machine now. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
