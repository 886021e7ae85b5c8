package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaAccess;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/**
 * Kafka as three brokers ({@code SECKILL_LOCAL_KAFKA_BROKERS=3}, this class's own JVM): the catalogued topics get 3
 * replicas and 2 in sync, and a broker killed with kill -9 while an idempotent producer writes with acks=all, then the
 * active controller, costs nothing: every partition takes writes again within 10 s, every acknowledged record is read
 * back exactly once, and the node, started again by the servers, is back in every partition's in-sync replicas.
 */
class ThreeBrokersIT {

    private static final KafkaAccess KAFKA = LocalInfrastructure.get().addresses().kafka();
    private static final int PARTITIONS = 6;
    private static final String TOPIC = Topic.ORDER_REQUESTS.topicName();
    private static final Duration WRITES_AGAIN_WITHIN = Duration.ofSeconds(10);

    @Test
    void theCataloguedTopicsHaveThreeReplicasTwoInSync() throws Exception {
        assertThat(KafkaClients.ensureTopics(KAFKA, TopicLayout.of(PARTITIONS), KafkaClients.START_TIMEOUT))
                .isEqualTo(new TopicLayout.Replication(3, 2));

        try (Admin admin = Admin.create(KafkaClients.admin(KAFKA))) {
            TopicDescription topic = admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC);
            assertThat(topic.partitions()).allSatisfy(partition -> assertThat(partition.replicas()).hasSize(3));
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value()).isEqualTo("2");
        }
    }

    @Test
    void aBrokerKilledWhileOrdersAreWrittenLosesNoneAndDuplicatesNone() throws Exception {
        killWhileWriting(false);
    }

    @Test
    void theActiveControllerKilledWhileOrdersAreWrittenLosesNoneAndDuplicatesNone() throws Exception {
        killWhileWriting(true);
    }

    private static void killWhileWriting(boolean activeController) throws Exception {
        KafkaClients.ensureTopics(KAFKA, TopicLayout.of(PARTITIONS), KafkaClients.START_TIMEOUT);
        String run = UUID.randomUUID().toString();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicLongArray lastAck = new AtomicLongArray(PARTITIONS);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (Admin admin = Admin.create(KafkaClients.admin(KAFKA));
                KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(KAFKA, "three-brokers-test"))) {
            Thread writer = Thread.ofPlatform().name("three-brokers-writer").start(() -> {
                for (int n = 0; writing.get(); n++) {
                    String id = run + "/" + n;
                    int partition = n % PARTITIONS;
                    var _ = producer.send(
                            new ProducerRecord<>(TOPIC, partition, id, id.getBytes(StandardCharsets.UTF_8)),
                            (metadata, failure) -> {
                                if (failure == null) {
                                    acknowledged.add(id);
                                    lastAck.set(partition, System.nanoTime());
                                }
                            });
                    sleepQuietly();
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.size() >= 100);

            int victim = victim(admin, activeController);
            LocalInfrastructure.get().kafkaNode(victim).destroyForcibly();
            long killedAt = System.nanoTime();

            await("every partition acknowledges a write made after the kill")
                    .atMost(WRITES_AGAIN_WITHIN)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() ->
                            IntStream.range(0, PARTITIONS).allMatch(partition -> lastAck.get(partition) > killedAt));
            await("the node back in every partition's in-sync replicas")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> inSync(admin, victim));
            writing.set(false);
            writer.join();
            producer.flush();
        }

        Map<String, Integer> read = readBack(run);
        assertThat(acknowledged).isNotEmpty();
        assertThat(read.keySet()).as("every acknowledged record is there").containsAll(acknowledged);
        assertThat(read).as("none twice").allSatisfy((id, times) -> assertThat(times).isEqualTo(1));
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The metadata quorum's leader, or the first other voter. */
    private static int victim(Admin admin, boolean activeController) throws Exception {
        QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
        int leader = quorum.leaderId();
        return activeController
                ? leader
                : quorum.voters().stream()
                        .mapToInt(QuorumInfo.ReplicaState::replicaId)
                        .filter(id -> id != leader)
                        .min()
                        .orElseThrow();
    }

    private static boolean inSync(Admin admin, int node) throws Exception {
        if (admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                .noneMatch(broker -> broker.id() == node)) {
            return false;
        }
        return admin
                .describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(TOPIC)
                .partitions()
                .stream()
                .allMatch(partition -> partition.isr().stream().anyMatch(replica -> replica.id() == node));
    }

    /** Every record of {@code run} on the topic, with how many times it is there. */
    private static Map<String, Integer> readBack(String run) {
        Properties props =
                KafkaClients.consumer(KAFKA, "three-brokers-test-" + UUID.randomUUID(), "three-brokers-reader");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        Map<String, Integer> read = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            IntStream.range(0, PARTITIONS).forEach(partition -> partitions.add(new TopicPartition(TOPIC, partition)));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.key() != null && record.key().startsWith(run + "/")) {
                        read.merge(record.key(), 1, Integer::sum);
                    }
                }
            }
        }
        return read;
    }
}
