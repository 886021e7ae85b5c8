package io.seckill.processdriver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/seckill servers} in a data directory of its own, and the settings its {@code servers.env}
 * gives the services started beside it.
 */
public final class DevelopmentServers implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Path dataDirectory;
    private final Path repository;
    private final Path logDirectory;
    private final Map<String, String> environment;
    private SeckillProcess process;

    private DevelopmentServers(
            Path dataDirectory, Path repository, Path logDirectory, Map<String, String> environment) {
        this.dataDirectory = dataDirectory;
        this.repository = repository;
        this.logDirectory = logDirectory;
        this.environment = environment;
    }

    /** Starts the servers and waits until they have written their addresses. */
    public static DevelopmentServers start(
            Path repository, Path dataDirectory, Path logDirectory, Map<String, String> environment)
            throws InterruptedException {
        Map<String, String> settings = new LinkedHashMap<>(environment);
        settings.put("SECKILL_DATA_DIR", dataDirectory.toString());
        DevelopmentServers servers = new DevelopmentServers(dataDirectory, repository, logDirectory, settings);
        servers.launch("servers");
        return servers;
    }

    /**
     * kill -9 of the servers' process, then the servers command again on the same data directory, with
     * {@code meanwhile} done between the kill and the start (e.g. losing a server's data).
     */
    public void killAndStartAgain(Meanwhile meanwhile) throws InterruptedException {
        process.kill();
        try {
            meanwhile.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        launch("servers-again");
    }

    /** What happens while the servers are down. */
    @FunctionalInterface
    public interface Meanwhile {
        void run() throws IOException, InterruptedException;
    }

    /** Where the servers keep their data (each server in a folder of its own). */
    public Path dataDirectory() {
        return dataDirectory;
    }

    private void launch(String name) throws InterruptedException {
        process = SeckillProcess.start(repository, name, "servers", environment, logDirectory);
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (!process.output().contains("seckill servers are running")) {
            if (!process.alive() || Instant.now().isAfter(deadline)) {
                close();
                throw new IllegalStateException("the servers did not start; their output:\n" + process.output());
            }
            Thread.sleep(200);
        }
    }

    /** What the services need to find the servers: the data directory (bin/seckill reads its servers.env). */
    public Map<String, String> serviceEnvironment() {
        return Map.of("SECKILL_DATA_DIR", dataDirectory.toString());
    }

    /** The settings the servers wrote, e.g. SECKILL_MYSQL_URL, for a test's own clients. */
    public Map<String, String> settings() {
        try {
            Map<String, String> settings = new LinkedHashMap<>();
            List<String> lines = Files.readAllLines(dataDirectory.resolve("servers.env"));
            for (String line : lines) {
                int equals = line.indexOf('=');
                if (!line.startsWith("#") && equals > 0) {
                    settings.put(line.substring(0, equals), line.substring(equals + 1));
                }
            }
            return settings;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts {@code bin/seckill command} beside these servers with {@code environment} on top. */
    public SeckillProcess service(String name, String command, ServiceEnvironment environment) {
        Map<String, String> settings = new LinkedHashMap<>(serviceEnvironment());
        settings.putAll(environment.asMap());
        return SeckillProcess.start(repository, name, command, settings, logDirectory);
    }

    public SeckillProcess process() {
        return process;
    }

    @Override
    public void close() {
        process.stopOrKill(Duration.ofSeconds(60));
    }
}
