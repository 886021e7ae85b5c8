package io.seckill.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/**
 * A transaction its coordinator still holds, however long it has been quiet (a paused broker, a slow
 * producer), is the coordinator's to end: aborting one of its partitions behind the coordinator's back
 * breaks its atomicity (a Streams changelog committed while its output was aborted: orders lost to the
 * de-duplication). The check leaves it alone; its records flow once the producer commits.
 */
class HangingTransactionsIT {

    @Test
    void aQuietTransactionItsCoordinatorHoldsIsNotAborted() throws Exception {
        String bootstrap = Stores.INFRA.kafkaBootstrap();
        KafkaClients.ensureTopics(bootstrap, 12, KafkaClients.START_TIMEOUT);
        String topic = Topic.STOCK_COMPENSATIONS.topicName();
        byte[] inside = ("inside a quiet transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        byte[] behind = ("behind a quiet transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        Properties transactional = KafkaClients.producer(bootstrap, "quiet-test");
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "quiet-test-" + System.nanoTime());
        transactional.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 900_000);
        try (KafkaProducer<String, byte[]> quiet = new KafkaProducer<>(transactional);
             KafkaProbe kafka = new KafkaProbe(bootstrap);
             Admin admin = Admin.create(KafkaClients.admin(bootstrap))) {
            quiet.initTransactions();
            quiet.beginTransaction();
            quiet.send(new ProducerRecord<>(topic, 5, "quiet", inside)).get();
            kafka.sendTo(topic, 5, behind);
            HangingTransactions hanging = new HangingTransactions(admin, Duration.ZERO, Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5)),
                    Stores.metrics());

            assertThat(hanging.abortHanging()).isZero();
            assertThat(hanging.readiness().up()).isTrue();
            assertThat(kafka.readAll(topic)).noneMatch(record -> Arrays.equals(record.value(), behind));

            quiet.commitTransaction();
            // The commit's markers reach the partition a moment after commitTransaction() returns.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.readAll(topic))
                    .anyMatch(record -> Arrays.equals(record.value(), inside))
                    .anyMatch(record -> Arrays.equals(record.value(), behind)));
        }
    }

    @Test
    void aTransactionNoCoordinatorHoldsIsAbortedAndThePartitionFlowsAgain() throws Exception {
        String bootstrap = Stores.INFRA.kafkaBootstrap();
        String topic = "hanging-test-" + System.nanoTime();
        byte[] stray = "inside a transaction nobody will end".getBytes(StandardCharsets.UTF_8);
        byte[] behind = ("behind a hanging transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        Clock clock = Clock.systemUTC();
        try (KafkaProbe kafka = new KafkaProbe(bootstrap);
             Admin admin = Admin.create(KafkaClients.admin(bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            Node leader = await().atMost(Duration.ofSeconds(30)).until(
                    () -> admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().get(0).leader(),
                    node -> node != null && !node.isEmpty());
            // Far above any id a broker hands out: no coordinator knows this producer.
            long producerId = Long.MAX_VALUE / 2 + (System.nanoTime() & 0xFFFF);
            StrayTransaction.leave(admin, leader.host(), leader.port(), topic, 0, producerId, clock.millis(), stray);
            kafka.sendTo(topic, 0, behind);
            HangingTransactions hanging = new HangingTransactions(admin, Duration.ofMinutes(1), Clock.offset(clock, Duration.ofMinutes(2)),
                    Stores.metrics());

            // Stalled: read_committed readers get nothing behind the open transaction.
            assertThat(kafka.readAll(topic)).isEmpty();

            assertThat(hanging.abortHanging()).isOne();
            assertThat(hanging.readiness().up()).isTrue();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.readAll(topic))
                    .anyMatch(record -> Arrays.equals(record.value(), behind))
                    .noneMatch(record -> Arrays.equals(record.value(), stray)));
            assertThat(hanging.abortHanging()).isZero();
            admin.deleteTopics(List.of(topic)).all().get();
        }
    }
}
