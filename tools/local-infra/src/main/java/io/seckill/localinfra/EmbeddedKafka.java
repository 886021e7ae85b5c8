package io.seckill.localinfra;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.seckill.config.KafkaPrincipal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.utils.Time;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft broker+controller in this JVM ({@link KafkaNodeConfig}); new storage is formatted first, kept
 * storage reused.
 */
record EmbeddedKafka(KafkaRaftServer server, KafkaNodeConfig.NodePorts ports, KafkaNodeConfig config, Storage storage)
        implements EmbeddedBrokers {

    static EmbeddedKafka start() {
        int[] ports = FreePort.pick(3);
        return start(Storage.scratch("seckill-kafka"), ports[0], ports[1], ports[2]);
    }

    static EmbeddedKafka start(Storage storage, int port, int controllerPort, int brokerPort) {
        String logDir = storage.directory().toString();
        KafkaNodeConfig.NodePorts ports = new KafkaNodeConfig.NodePorts(port, controllerPort, brokerPort);
        KafkaNodeConfig config = new KafkaNodeConfig(
                KafkaNodeConfig.voters(List.of(ports)), UUID.randomUUID().toString(), 1);
        if (storage.isNew()) {
            KafkaNodeConfig.format(logDir, 1, Uuid.randomUuid().toString());
        }
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config.settings(1, ports, logDir)), Time.SYSTEM);
        server.startup();
        EmbeddedKafka kafka = new EmbeddedKafka(server, ports, config, storage);
        config.awaitReady(kafka.brokerListener(), 1);
        return kafka;
    }

    @Override
    public void provision(Map<KafkaPrincipal, String> passwords, List<AclBinding> acls) {
        config.provision(brokerListener(), passwords, acls);
    }

    private String brokerListener() {
        return "127.0.0.1:" + ports.broker();
    }

    @Override
    public String toString() {
        return "embedded Kafka on " + address();
    }

    @Override
    public String address() {
        return "127.0.0.1:" + ports.client();
    }

    @Override
    public void close() {
        // A broker and controller in one node close their registration channel twice as they stop, and its client says
        // so at WARN. The services' own clients are closed before their servers stop, so only the broker's are quieted
        // here.
        org.slf4j.Logger clients = LoggerFactory.getLogger(NetworkClient.class);
        Level level = clients instanceof Logger logback ? logback.getLevel() : null;
        if (clients instanceof Logger logback) {
            logback.setLevel(Level.ERROR);
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } finally {
            if (clients instanceof Logger logback) {
                logback.setLevel(level);
            }
            storage.release();
        }
    }
}
