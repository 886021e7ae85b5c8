package io.seckill.localinfra;

import io.seckill.config.KafkaPrincipal;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * What every embedded KRaft node has in common, alone or one of a cluster: a broker and a voter of the controller
 * quorum that, as a production broker would, authenticates every client (SASL/SCRAM on the clients' listener) and
 * authorises each request with the standard authorizer: nothing is allowed that no ACL allows. The nodes' own
 * connections (to the controllers and between replicas) use a listener of their own with a login made for the run,
 * which is the one super user besides the operator's principal.
 * @param replication the replicas of the broker's own topics (consumer offsets, transaction state) and of a topic
 *                    created without a factor: as many as the cluster has nodes, up to 3, writes acknowledged by all
 *                    but one
 */
record KafkaNodeConfig(String voters, String brokerPassword, int replication) {

    static final String BROKER_USER = "seckill-broker";
    private static final String SCRAM = "SCRAM-SHA-512";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    /** The address of a node, as its listeners and the quorum name it. */
    record NodePorts(int client, int controller, int broker) {
    }

    /** Without the password. */
    @Override
    public String toString() {
        return "Kafka nodes (voters " + voters + ", " + replication + " replica(s))";
    }

    /** The quorum of the nodes with ids 1, 2, ... in the order of {@code nodes}. */
    static String voters(List<NodePorts> nodes) {
        StringBuilder voters = new StringBuilder();
        for (int i = 0; i < nodes.size(); i++) {
            voters.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(nodes.get(i).controller());
        }
        return voters.toString();
    }

    Map<String, String> settings(int nodeId, NodePorts ports, String logDir) {
        String brokerLogin =
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
                        + "\" password=\"" + brokerPassword + "\" user_" + BROKER_USER + "=\"" + brokerPassword + "\";";
        String replicas = Integer.toString(replication);
        String minInsync = Integer.toString(Math.max(1, replication - 1));
        Map<String, String> settings = new HashMap<>(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", Integer.toString(nodeId)),
                Map.entry("controller.quorum.voters", voters),
                Map.entry(
                        "listeners",
                        "CLIENT://127.0.0.1:" + ports.client() + ",BROKER://127.0.0.1:" + ports.broker()
                                + ",CONTROLLER://127.0.0.1:" + ports.controller()),
                Map.entry(
                        "advertised.listeners",
                        "CLIENT://127.0.0.1:" + ports.client() + ",BROKER://127.0.0.1:" + ports.broker()),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry(
                        "listener.security.protocol.map",
                        "CLIENT:SASL_PLAINTEXT,BROKER:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "BROKER"),
                Map.entry("sasl.mechanism.inter.broker.protocol", "PLAIN"),
                Map.entry("sasl.mechanism.controller.protocol", "PLAIN"),
                Map.entry("listener.name.client.sasl.enabled.mechanisms", SCRAM),
                Map.entry(
                        "listener.name.client.scram-sha-512.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;"),
                Map.entry("listener.name.broker.sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("listener.name.broker.plain.sasl.jaas.config", brokerLogin),
                Map.entry("listener.name.controller.sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("listener.name.controller.plain.sasl.jaas.config", brokerLogin),
                Map.entry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
                Map.entry("super.users", "User:" + BROKER_USER + ";User:" + KafkaPrincipal.OPERATOR.user()),
                Map.entry("allow.everyone.if.no.acl.found", "false"),
                Map.entry("log.dirs", logDir),
                // Topics come from the services' catalogue with the partitions it asks for, never from a producer's
                // first send.
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("default.replication.factor", replicas),
                Map.entry("min.insync.replicas", minInsync),
                Map.entry("offsets.topic.replication.factor", replicas),
                Map.entry("offsets.topic.num.partitions", "5"),
                Map.entry("transaction.state.log.replication.factor", replicas),
                Map.entry("transaction.state.log.min.isr", minInsync),
                Map.entry("transaction.state.log.num.partitions", "5"),
                Map.entry("share.coordinator.state.topic.replication.factor", replicas),
                Map.entry("share.coordinator.state.topic.min.isr", minInsync),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // A dead active controller is replaced after 1 s without its fetches, not 2: the fencing above only
                // starts once a new one is active. The pre-vote a follower runs first keeps a slow but live leader in
                // place.
                Map.entry("controller.quorum.fetch.timeout.ms", "1000"),
                // Transactions of a killed producer are aborted within a second of their timeout, not ten.
                Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")));
        if (replication > 1) {
            // A node of a cluster that stops heartbeating is fenced (its partitions led by others) after 2 s, not
            // Kafka's 9 s: short, so a test's failover takes seconds, with eight heartbeats a session so that a busy
            // machine does not fence a live node. A single node has no one to fail over to: it keeps Kafka's defaults,
            // under which a machine busy for seconds (the run command's warm-up beside its broker) times out no
            // heartbeat. Production clusters keep the defaults unless they measured otherwise.
            settings.put("broker.heartbeat.interval.ms", "250");
            settings.put("broker.session.timeout.ms", "2000");
        }
        return Map.copyOf(settings);
    }

    /** Formats new storage of node {@code nodeId}; every node of a cluster gets the same {@code clusterId}. */
    static void format(String logDir, int nodeId, String clusterId) {
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
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

    /** Waits until {@code brokers} brokers are registered, asked over the nodes' own listener at {@code bootstrap}. */
    void awaitReady(String bootstrap, int brokers) {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        try (Admin admin = Admin.create(asBroker(bootstrap))) {
            while (true) {
                try {
                    if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= brokers) {
                        return;
                    }
                } catch (Exception notYet) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new IllegalStateException("embedded Kafka not ready within " + READY_TIMEOUT, notYet);
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(
                            "embedded Kafka: fewer than " + brokers + " brokers registered within " + READY_TIMEOUT);
                }
                sleep();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for embedded Kafka", e);
        }
    }

    /**
     * Gives each principal its SCRAM login with its password (a kept broker already has them: they are set again) and
     * applies {@code acls}, as the nodes' own super user on their own listener.
     */
    void provision(String bootstrap, Map<KafkaPrincipal, String> passwords, List<AclBinding> acls) {
        try (Admin admin = Admin.create(asBroker(bootstrap))) {
            admin.alterUserScramCredentials(passwords.entrySet().stream()
                    .<UserScramCredentialAlteration>map(login -> new UserScramCredentialUpsertion(login.getKey().user(),
                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), login.getValue()))
                    .toList()).all().get(30, TimeUnit.SECONDS);
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot provision the embedded brokers' principals and ACLs", e);
        }
    }

    private Properties asBroker(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        props.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
                        + "\" password=\"" + brokerPassword + "\";");
        return props;
    }
}
