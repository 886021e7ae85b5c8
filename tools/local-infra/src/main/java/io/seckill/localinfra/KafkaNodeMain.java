package io.seckill.localinfra;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * One node of an {@link EmbeddedKafkaCluster}, in a JVM of its own so that it can be killed alone: runs the node its
 * settings file names until the JVM is stopped (SIGTERM: a controlled shutdown) or the process that started it ends.
 * Writes its pid next to the settings, for whoever kills it.
 */
public final class KafkaNodeMain {

    static final String PID_FILE = "kafka.pid";

    private KafkaNodeMain() {
    }

    /** @param args the node's settings file (it holds the nodes' own password: readable by its owner only) */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: KafkaNodeMain <node settings file>");
        }
        Path settingsFile = Path.of(args[0]);
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(settingsFile)) {
            settings.load(in);
        }
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(settings), Time.SYSTEM);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "kafka-node-stop"));
        // An orphan would hold its ports and its data against the next start.
        ProcessHandle.current().parent().ifPresent(parent -> {
            var _ = parent.onExit().thenRun(() -> System.exit(0));
        });
        server.startup();
        writePid(settingsFile.resolveSibling(PID_FILE));
        server.awaitShutdown();
    }

    private static void writePid(Path file) {
        try {
            Files.writeString(file, Long.toString(ProcessHandle.current().pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
