package io.seckill.benchmark;

import io.seckill.processdriver.DevelopmentServers;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where a benchmark that runs its own development servers finds bin/seckill, and the folder under
 * {@code benchmark/target/} that holds the servers' data and every process's log.
 */
final class ServersOptions {

    @Option(names = "--repository", defaultValue = ".", description = "the working copy with bin/seckill, built (default: here)")
    Path repository;

    private Path work;

    /** Starts {@code bin/seckill servers} in a fresh folder named after the benchmark. */
    DevelopmentServers start(String benchmark) throws InterruptedException {
        return start(benchmark, Map.of("JAVA_OPTS", "-Xmx1g -XX:+UseSerialGC"));
    }

    /** The same, with the servers command's environment given (e.g. a Redis Cluster's topology). */
    DevelopmentServers start(String benchmark, Map<String, String> environment) throws InterruptedException {
        Path root = repository.toAbsolutePath().normalize();
        work = root.resolve("benchmark/target/" + benchmark + "-" + System.currentTimeMillis());
        return DevelopmentServers.start(root, work.resolve("data"), logs(), environment);
    }

    /** The benchmark's folder under {@code benchmark/target/}. */
    Path work() {
        return work;
    }

    Path logs() {
        return work.resolve("logs");
    }
}
