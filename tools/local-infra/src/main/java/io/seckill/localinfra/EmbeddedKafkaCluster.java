package io.seckill.localinfra;

import io.seckill.config.KafkaPrincipal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real KRaft cluster of {@value #NODES} nodes, each a broker and a voter of the controller quorum ({@link
 * KafkaNodeConfig}), each in a JVM of its own ({@link KafkaNodeMain}) and a folder of its own ({@code node-1} ...), so
 * that one can be killed alone. Topics get 3 replicas and need 2 in sync: the cluster loses no acknowledged write and
 * keeps taking writes with one node down, and the quorum keeps a controller. A node that dies (a crash, a kill -9) is
 * started again on its data a second later, as systemd or Kubernetes would; the other two go on without it meanwhile.
 * New storage is formatted here, every node with one cluster id; kept storage comes back as it was.
 */
final class EmbeddedKafkaCluster implements EmbeddedBrokers {

    static final int NODES = 3;
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);
    private static final String PORTS_FILE = "cluster.ports";
    private static final String SETTINGS_FILE = "node.properties";
    /** Small heaps and the quick compiler: three brokers share the host with the services they serve. */
    private static final List<String> NODE_JVM_OPTIONS =
            List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private static final Duration RESTART_AFTER = Duration.ofSeconds(1);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Storage storage;
    private final KafkaNodeConfig config;
    private final List<KafkaNodeConfig.NodePorts> ports;
    private final AtomicReferenceArray<Process> processes = new AtomicReferenceArray<>(NODES);
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafka-node-watchdog");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean closing;

    private EmbeddedKafkaCluster(Storage storage, KafkaNodeConfig config, List<KafkaNodeConfig.NodePorts> ports) {
        this.storage = storage;
        this.config = config;
        this.ports = ports;
    }

    static EmbeddedKafkaCluster start() {
        return start(Storage.scratch("seckill-kafka-cluster"));
    }

    static EmbeddedKafkaCluster start(Storage storage) {
        boolean create = storage.isNew();
        int[] picked = KeptPorts.in(storage.directory().resolve(PORTS_FILE), NODES * 3, "the embedded Kafka cluster");
        List<KafkaNodeConfig.NodePorts> ports = IntStream.range(0, NODES)
                .mapToObj(i -> new KafkaNodeConfig.NodePorts(picked[3 * i], picked[3 * i + 1], picked[3 * i + 2]))
                .toList();
        // A password of this run for the nodes' own listener: the settings files are written again at every start.
        KafkaNodeConfig config = new KafkaNodeConfig(
                KafkaNodeConfig.voters(ports), UUID.randomUUID().toString(), NODES);
        EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(storage, config, ports);
        try {
            String clusterId = Uuid.randomUuid().toString();
            for (int node = 1; node <= NODES; node++) {
                Path data = Files.createDirectories(cluster.folder(node).resolve("data"));
                if (create) {
                    KafkaNodeConfig.format(data.toString(), node, clusterId);
                }
                cluster.writeSettings(node, data);
            }
            for (int node = 1; node <= NODES; node++) {
                cluster.launch(node);
            }
            config.awaitReady(cluster.brokerListeners(), NODES);
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException("cannot start an embedded Kafka cluster in " + storage.directory(), e);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Node {@code node}'s folder: its settings, its pid file ({@value KafkaNodeMain#PID_FILE}), its log and its data.
     */
    Path folder(int node) {
        return storage.directory().resolve("node-" + node);
    }

    /** The node's settings, readable by this user only: they hold the nodes' own password. */
    private void writeSettings(int node, Path data) throws IOException {
        Properties settings = new Properties();
        settings.putAll(config.settings(node, ports.get(node - 1), data.toString()));
        Path file = folder(node).resolve(SETTINGS_FILE);
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(file)) {
            settings.store(out, "Kafka node " + node + " of the embedded cluster");
        }
    }

    private void launch(int node) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(NODE_JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), KafkaNodeMain.class.getName(),
                folder(node).resolve(SETTINGS_FILE).toString()));
        Process process = new ProcessBuilder(OwnSession.command(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(folder(node).resolve("node.log").toFile())).start();
        processes.set(node - 1, process);
        var _ = process.onExit().thenRun(() -> {
            if (!closing) {
                LOG.warn(
                        "Kafka node {} (pid {}) ended with status {}; starting it again in {} ms",
                        node,
                        process.pid(),
                        process.exitValue(),
                        RESTART_AFTER.toMillis());
                scheduleLaunch(node);
            }
        });
    }

    private void scheduleLaunch(int node) {
        var _ = restarts.schedule(() -> {
            if (closing) {
                return;
            }
            try {
                launch(node);
            } catch (IOException | RuntimeException e) {
                LOG.error("cannot start Kafka node {} again; trying again in {} ms", node, RESTART_AFTER.toMillis(), e);
                scheduleLaunch(node);
            }
        }, RESTART_AFTER.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Node {@code node}'s JVM as it runs now (a new one after each restart). */
    ProcessHandle process(int node) {
        return processes.get(node - 1).toHandle();
    }

    private String brokerListeners() {
        return ports.stream().map(node -> "127.0.0.1:" + node.broker()).collect(Collectors.joining(","));
    }

    @Override
    public void provision(Map<KafkaPrincipal, String> passwords, List<AclBinding> acls) {
        config.provision(brokerListeners(), passwords, acls);
    }

    /** Every node's clients' listener: a client finds the cluster whichever node is down. */
    @Override
    public String address() {
        return ports.stream().map(node -> "127.0.0.1:" + node.client()).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return "embedded Kafka cluster (" + NODES + " brokers, each a controller) on " + address();
    }

    /** Stops every node at once (SIGTERM, a controlled shutdown each), then whatever still runs after the timeout. */
    @Override
    public void close() {
        closing = true;
        restarts.shutdownNow();
        List<Process> running = IntStream.range(0, NODES)
                .mapToObj(processes::get)
                .filter(process -> process != null && process.isAlive())
                .toList();
        running.forEach(Process::destroy);
        for (Process process : running) {
            try {
                process.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                LOG.warn("Kafka node pid {} did not stop within {}; killing it", process.pid(), STOP_TIMEOUT);
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            } catch (ExecutionException e) {
                process.destroyForcibly();
            }
        }
        storage.release();
    }
}
