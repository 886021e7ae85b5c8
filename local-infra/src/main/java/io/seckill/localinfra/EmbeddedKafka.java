package io.seckill.localinfra;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/** A single-node KRaft broker+controller in this JVM; new storage is formatted first, kept storage reused. */
record EmbeddedKafka(KafkaRaftServer server, int port, Storage storage) implements RunningServer {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    static EmbeddedKafka start() {
        int[] ports = FreePort.pick(2);
        return start(Storage.scratch("seckill-kafka"), ports[0], ports[1]);
    }

    static EmbeddedKafka start(Storage storage, int port, int controllerPort) {
        String logDir = storage.directory().toString();
        Map<String, String> settings = Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("log.dirs", logDir),
                // Topics come from the services' catalogue with the partitions it asks for, never from a producer's first send.
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "5"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "5"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Transactions of a killed producer are aborted within a second of their timeout, not ten.
                Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"));
        if (storage.isNew()) {
            format(logDir);
        }
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(settings), Time.SYSTEM);
        server.startup();
        EmbeddedKafka kafka = new EmbeddedKafka(server, port, storage);
        kafka.awaitReady();
        return kafka;
    }

    private static void format(String logDir) {
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(1)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(logDir))
                    .setMetadataLogDirectory(logDir)
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    // KIP-890's transaction protocol: the broker verifies that a partition belongs to the
                    // producer's ongoing transaction before appending, which keeps stray late writes from
                    // opening transactions nobody will end (hanging transactions).
                    .setFeatureLevel("transaction.version", (short) 2)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format embedded Kafka storage in " + logDir, e);
        }
    }

    private void awaitReady() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address());
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        try (Admin admin = Admin.create(props)) {
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception notYet) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new IllegalStateException("embedded Kafka not ready within " + READY_TIMEOUT, notYet);
                    }
                }
            }
        }
    }

    @Override
    public String address() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        storage.release();
    }
}
