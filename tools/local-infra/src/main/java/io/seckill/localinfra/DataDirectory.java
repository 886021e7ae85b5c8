package io.seckill.localinfra;

import io.seckill.config.Env;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the development servers keep their data between runs: {@code SECKILL_DATA_DIR}, by default
 * {@code data/} under the directory the command runs in (the working copy, where git ignores it).
 * Each server has its own folder; {@code servers.env} holds the addresses the other commands read.
 */
public record DataDirectory(Path root) {

    public static final String VARIABLE = "SECKILL_DATA_DIR";

    public static final String FRESH_OPTION = "--fresh";

    /**
     * The data directory the environment names, emptied first when the command line says
     * {@value #FRESH_OPTION}; any other argument is refused, so a typo never starts a run on old data.
     */
    public static DataDirectory forCommand(Env env, String... args) {
        DataDirectory data = new DataDirectory(Path.of(env.string(VARIABLE, "data")).toAbsolutePath().normalize());
        for (String arg : args) {
            if (!FRESH_OPTION.equals(arg)) {
                throw new IllegalArgumentException("unknown option '" + arg + "'; the only one is " + FRESH_OPTION
                        + " (start with an empty data directory)");
            }
            data.wipe();
        }
        return data;
    }

    Path kafka() {
        return folder("kafka");
    }

    Path mariaDb() {
        return folder("mariadb");
    }

    Path redis() {
        return folder("redis");
    }

    /** A local Redis Cluster's nodes, a folder each: a data directory keeps its single node and its cluster apart. */
    Path redisCluster() {
        return folder("redis-cluster");
    }

    /** A local Kafka cluster's nodes, a folder each: a data directory keeps its single broker and its cluster apart. */
    Path kafkaCluster() {
        return folder("kafka-cluster");
    }

    /** Kafka Streams' local state, which belongs with the broker data it was built from. */
    public Path streams() {
        return folder("streams");
    }

    Path ports() {
        return root.resolve("ports.properties");
    }

    /** The servers' addresses as environment assignments, one per line. */
    public Path serversEnv() {
        return root.resolve("servers.env");
    }

    /**
     * Deletes everything in it: the explicit way to start empty. The JVM's scratch folder
     * ({@code java.io.tmpdir}, which {@code bin/seckill} points into the data directory) is emptied
     * too but stays, since the embedded servers write their files there next.
     */
    public void wipe() {
        if (!Files.exists(root)) {
            return;
        }
        Path scratch = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (!scratch.startsWith(path)) {
                    Files.delete(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty the data directory " + root, e);
        }
    }

    private Path folder(String name) {
        try {
            return Files.createDirectories(root.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + root.resolve(name), e);
        }
    }
}
