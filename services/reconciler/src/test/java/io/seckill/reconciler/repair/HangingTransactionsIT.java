package io.seckill.reconciler.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.reconciler.SettableClock;
import io.seckill.reconciler.Stores;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.runtime.TopicLayout;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
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
        KafkaAccess bootstrap = Stores.INFRA.kafka();
        KafkaClients.ensureTopics(bootstrap, TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        String topic = Topic.STOCK_COMPENSATIONS.topicName();
        byte[] inside = ("inside a quiet transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        byte[] behind = ("behind a quiet transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        Properties transactional = KafkaClients.producer(bootstrap, "quiet-test");
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "quiet-test-" + System.nanoTime());
        transactional.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 900_000);
        try (KafkaProducer<String, byte[]> quiet = new KafkaProducer<>(transactional);
                KafkaProbe kafka = new KafkaProbe(bootstrap);
                // As the repair runs in the reconciler: under its own principal, with only its own grants.
                Admin admin = Admin.create(KafkaClients.admin(LocalInfrastructure.get()
                        .addressesFor(KafkaPrincipal.TRANSACTION_REPAIR)
                        .kafka()))) {
            quiet.initTransactions();
            quiet.beginTransaction();
            quiet.send(new ProducerRecord<>(topic, 5, "quiet", inside)).get();
            kafka.sendTo(topic, 5, behind);
            HangingTransactions hanging = new HangingTransactions(admin, Duration.ZERO, Duration.ofSeconds(1),
                    Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5)), Stores.metrics());

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
    void aTransactionNoCoordinatorHoldsIsAbortedOnceSeenOpenLongEnoughAndThePartitionFlowsAgain() throws Exception {
        try (Stray stray = Stray.leave()) {
            SettableClock clock = new SettableClock(Instant.now().plus(Duration.ofMinutes(2)));
            HangingTransactions hanging = new HangingTransactions(
                    stray.admin, Duration.ofMinutes(1), Duration.ofMinutes(1), clock, Stores.metrics());
            // Stalled: read_committed readers get nothing behind the open transaction.
            assertThat(stray.kafka.readAll(stray.topic)).isEmpty();

            assertThat(hanging.abortHanging()).as("first seen: old records alone prove nothing").isZero();
            clock.advance(Duration.ofMinutes(1));
            assertThat(hanging.abortHanging()).as("seen open for the bound").isOne();

            assertThat(hanging.readiness().up()).isTrue();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(stray.kafka.readAll(stray.topic))
                    .anyMatch(record -> Arrays.equals(record.value(), stray.behind))
                    .noneMatch(record -> Arrays.equals(record.value(), Stray.INSIDE)));
            assertThat(hanging.abortHanging()).isZero();
        }
    }

    /**
     * A stall (of the broker, or of the reconciler) between two checks: the observation starts over, nothing is aborted
     * on old evidence.
     */
    @Test
    void afterAGapInTheChecksATransactionMustBeSeenOpenForTheBoundAgain() throws Exception {
        try (Stray stray = Stray.leave()) {
            SettableClock clock = new SettableClock(Instant.now().plus(Duration.ofMinutes(2)));
            HangingTransactions hanging = new HangingTransactions(
                    stray.admin, Duration.ofMinutes(1), Duration.ofSeconds(10), clock, Stores.metrics());

            assertThat(hanging.abortHanging()).isZero();
            clock.advance(Duration.ofMinutes(2));
            assertThat(hanging.abortHanging()).as("right after the gap").isZero();
            clock.advance(Duration.ofSeconds(30));
            assertThat(hanging.abortHanging()).as("half the bound after the gap").isZero();
            clock.advance(Duration.ofSeconds(30));
            assertThat(hanging.abortHanging()).as("the bound after the gap, seen without one since").isOne();
        }
    }

    /**
     * A broker crash's trace: the producer's transaction ended by its coordinator (here committed, the epoch moving on)
     * while a partition of it still waits for a marker. Aborted at the next check, long before the bound.
     */
    @Test
    void aTransactionItsCoordinatorEndedAtALaterEpochIsAbortedAtTheNextCheck() throws Exception {
        KafkaAccess bootstrap = Stores.INFRA.kafka();
        KafkaClients.ensureTopics(bootstrap, TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        String transactionalId = "ended-test-" + System.nanoTime();
        Properties transactional = KafkaClients.producer(bootstrap, "ended-test");
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        long producerId;
        try (KafkaProducer<String, byte[]> ended = new KafkaProducer<>(transactional);
             Admin admin = Admin.create(KafkaClients.admin(bootstrap))) {
            ended.initTransactions();
            ended.beginTransaction();
            ended.send(new ProducerRecord<>(
                            Topic.STOCK_COMPENSATIONS.topicName(),
                            6,
                            "ended",
                            "committed".getBytes(StandardCharsets.UTF_8)))
                    .get();
            ended.commitTransaction();
            TransactionDescription afterCommit = admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId)
                    .get();
            assertThat(afterCommit.producerEpoch()).as("the commit moved the epoch (KIP-890)").isPositive();
            producerId = afterCommit.producerId();
        }
        try (Stray stray = Stray.leave(producerId)) {
            SettableClock clock = new SettableClock(Instant.now());
            HangingTransactions hanging = new HangingTransactions(
                    stray.admin, Duration.ofHours(1), Duration.ofSeconds(10), clock, Stores.metrics());

            assertThat(hanging.abortHanging()).as("first seen").isZero();
            clock.advance(Duration.ofSeconds(10));
            assertThat(hanging.abortHanging()).as("seen open again, its coordinator done with it").isOne();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(stray.kafka.readAll(stray.topic))
                    .anyMatch(record -> Arrays.equals(record.value(), stray.behind))
                    .noneMatch(record -> Arrays.equals(record.value(), Stray.INSIDE)));
        }
    }

    /** A transaction on a topic of its own that no coordinator knows, with a record written behind it. */
    private static final class Stray implements AutoCloseable {

        static final byte[] INSIDE = "inside a transaction nobody will end".getBytes(StandardCharsets.UTF_8);

        final String topic = "hanging-test-" + System.nanoTime();
        final byte[] behind = ("behind a hanging transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        final KafkaProbe kafka;
        final Admin admin;

        private Stray(KafkaAccess bootstrap) {
            this.kafka = new KafkaProbe(bootstrap);
            this.admin = Admin.create(KafkaClients.admin(bootstrap));
        }

        static Stray leave() throws Exception {
            // Far above any id a broker hands out: no coordinator knows this producer.
            return leave(Long.MAX_VALUE / 2 + (System.nanoTime() & 0xFFFF));
        }

        /** Of {@code producerId} at epoch 0. */
        static Stray leave(long producerId) throws Exception {
            Stray stray = new Stray(Stores.INFRA.kafka());
            stray.admin.createTopics(List.of(new NewTopic(stray.topic, 1, (short) 1))).all().get();
            // The new topic reaches the broker's metadata a moment after it is created: until then it is unknown there.
            Node leader = await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(ExecutionException.class)
                    .until(
                            () -> stray.admin
                                    .describeTopics(List.of(stray.topic))
                                    .allTopicNames()
                                    .get()
                                    .get(stray.topic)
                                    .partitions()
                                    .get(0)
                                    .leader(),
                            node -> node != null && !node.isEmpty());
            StrayTransaction.leave(
                    stray.admin,
                    Stores.INFRA.kafka().security().sasl().orElseThrow(),
                    leader.host(),
                    leader.port(),
                    stray.topic,
                    0,
                    producerId,
                    System.currentTimeMillis(),
                    INSIDE);
            stray.kafka.sendTo(stray.topic, 0, stray.behind);
            return stray;
        }

        @Override
        public void close() throws ExecutionException {
            try {
                admin.deleteTopics(List.of(topic)).all().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                admin.close();
                kafka.close();
            }
        }
    }
}
