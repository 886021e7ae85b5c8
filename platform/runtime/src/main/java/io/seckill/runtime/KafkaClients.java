package io.seckill.runtime;

import io.seckill.config.KafkaAccess;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Client settings every service uses, and the topic catalogue made real on the broker. */
public final class KafkaClients {

    /** How long a service waits at start for the cluster to create or describe its topics. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long a group member may stay silent before its partitions go to the others: the broker's
     * smallest accepted value (group.min.session.timeout.ms), so a member killed with kill -9 is
     * replaced within seconds instead of the 45 s default.
     */
    public static final int SESSION_TIMEOUT_MS = 6_000;
    /** A third of the session or less, as the consumer requires; three missed heartbeats end the session. */
    public static final int HEARTBEAT_INTERVAL_MS = 1_500;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClients.class);

    private KafkaClients() {
    }

    /** Idempotent, acks=all: a retried send never duplicates within a producer session. String keys, byte values. */
    public static Properties producer(KafkaAccess kafka, String clientId) {
        Properties props = kafka.clientProperties();
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return props;
    }

    /**
     * Manual commits, read_committed (inputs come from transactional Kafka Streams), earliest on a new
     * group, a dead member detected within {@link #SESSION_TIMEOUT_MS}.
     */
    public static Properties consumer(KafkaAccess kafka, String groupId, String clientId) {
        Properties props = kafka.clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return props;
    }

    public static Properties admin(KafkaAccess kafka) {
        return kafka.clientProperties();
    }

    /**
     * Creates every catalogued topic that does not exist yet as {@code layout} says: its partitions, and its
     * replication on this cluster's brokers. An existing topic laid out otherwise is left as it is (adding partitions
     * moves keys between them, which only an operator can decide while the topic is drained; reassigning replicas is an
     * operator's job too) and reported in the log. Fails when the cluster does not answer within {@code timeout}, or
     * when the replication asked for needs more brokers than it has.
     * @return the replication the topics are created with, for the topics a client creates itself (Kafka Streams')
     */
    public static TopicLayout.Replication ensureTopics(KafkaAccess kafka, TopicLayout layout, Duration timeout) {
        Properties props = admin(kafka);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000));
        try (Admin admin = Admin.create(props)) {
            TopicLayout.Replication replication = layout.replicationOn(admin.describeCluster().nodes().get().size());
            List<NewTopic> topics = Topic.all().stream()
                    .map(topic -> new NewTopic(topic.topicName(), Optional.of(layout.partitions()), Optional.of((short)
                                    replication.factor()))
                            .configs(Map.of(
                                    TopicConfig.CLEANUP_POLICY_CONFIG,
                                    topic.cleanupPolicy(),
                                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                                    Integer.toString(replication.minInsync()))))
                    .toList();
            admin.createTopics(topics).values().forEach((name, future) -> {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + name, e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted creating topic " + name, e);
                }
            });
            reportOtherLayouts(admin, layout.partitions(), replication, timeout);
            return replication;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe the Kafka cluster", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted describing the Kafka cluster", e);
        }
    }

    private static void reportOtherLayouts(
            Admin admin, int partitions, TopicLayout.Replication replication, Duration timeout) {
        List<String> names = Topic.all().stream().map(Topic::topicName).toList();
        try {
            describeOnceKnown(admin, names, timeout).forEach((name, description) -> {
                int actual = description.partitions().size();
                if (actual < partitions) {
                    LOG.warn(
                            "topic {} has {} partitions, fewer than the {} asked for ({}): at most {} instances of"
                                    + " each service consuming it share the work",
                            name,
                            actual,
                            partitions,
                            TopicLayout.PARTITIONS,
                            actual);
                }
                int replicas = description.partitions().get(0).replicas().size();
                if (replicas < replication.factor()) {
                    LOG.warn(
                            "topic {} has {} replica(s) per partition, fewer than the {} asked for ({}): a broker lost"
                                    + " may lose what it alone held",
                            name,
                            replicas,
                            replication.factor(),
                            TopicLayout.REPLICATION_FACTOR);
                }
            });
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe the catalogued topics", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted describing the catalogued topics", e);
        }
    }

    /** A topic just created, here or by another service, is known to every broker of a cluster only a moment later. */
    private static Map<String, TopicDescription> describeOnceKnown(Admin admin, List<String> names, Duration timeout)
            throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return admin.describeTopics(names).allTopicNames().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
