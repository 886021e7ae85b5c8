package io.seckill.localinfra;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import io.seckill.config.KafkaPrincipal;
import java.util.UUID;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single-node KRaft broker+controller in this JVM; new storage is formatted first, kept storage reused. As a production
 * broker would, it authenticates every client (SASL/SCRAM on the clients' listener) and authorises each request with the
 * standard authorizer: nothing is allowed that no ACL allows. The broker's own connections (to itself as the controller
 * and as a replica) use a listener of their own with a login made for this run, which is the one super user besides the
 * operator's principal.
 */
record EmbeddedKafka(KafkaRaftServer server, int port, int brokerPort, String brokerPassword, Storage storage) implements RunningServer {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String BROKER_USER = "seckill-broker";
    private static final String SCRAM = "SCRAM-SHA-512";

    static EmbeddedKafka start() {
        int[] ports = FreePort.pick(3);
        return start(Storage.scratch("seckill-kafka"), ports[0], ports[1], ports[2]);
    }

    static EmbeddedKafka start(Storage storage, int port, int controllerPort, int brokerPort) {
        String logDir = storage.directory().toString();
        String brokerPassword = UUID.randomUUID().toString();
        String brokerLogin = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER + "\" password=\""
                + brokerPassword + "\" user_" + BROKER_USER + "=\"" + brokerPassword + "\";";
        Map<String, String> settings = Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "CLIENT://127.0.0.1:" + port + ",BROKER://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "CLIENT://127.0.0.1:" + port + ",BROKER://127.0.0.1:" + brokerPort),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("listener.security.protocol.map", "CLIENT:SASL_PLAINTEXT,BROKER:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "BROKER"),
                Map.entry("sasl.mechanism.inter.broker.protocol", "PLAIN"),
                Map.entry("sasl.mechanism.controller.protocol", "PLAIN"),
                Map.entry("listener.name.client.sasl.enabled.mechanisms", SCRAM),
                Map.entry("listener.name.client.scram-sha-512.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;"),
                Map.entry("listener.name.broker.sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("listener.name.broker.plain.sasl.jaas.config", brokerLogin),
                Map.entry("listener.name.controller.sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("listener.name.controller.plain.sasl.jaas.config", brokerLogin),
                Map.entry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
                Map.entry("super.users", "User:" + BROKER_USER + ";User:" + KafkaPrincipal.OPERATOR.user()),
                Map.entry("allow.everyone.if.no.acl.found", "false"),
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
        EmbeddedKafka kafka = new EmbeddedKafka(server, port, brokerPort, brokerPassword, storage);
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
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        try (Admin admin = Admin.create(asBroker())) {
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

    /**
     * Gives each principal its SCRAM login with its password (a kept broker already has them: they are set again) and
     * applies {@code acls}, as the broker's own super user on its own listener.
     */
    void provision(Map<KafkaPrincipal, String> passwords, List<AclBinding> acls) {
        try (Admin admin = Admin.create(asBroker())) {
            admin.alterUserScramCredentials(passwords.entrySet().stream()
                    .<UserScramCredentialAlteration>map(login -> new UserScramCredentialUpsertion(login.getKey().user(),
                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), login.getValue()))
                    .toList()).all().get(30, TimeUnit.SECONDS);
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot provision the embedded broker's principals and ACLs", e);
        }
    }

    private Properties asBroker() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokerPort);
        props.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        props.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
                + "\" password=\"" + brokerPassword + "\";");
        return props;
    }

    @Override
    public String toString() {
        return "embedded Kafka on " + address();
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
