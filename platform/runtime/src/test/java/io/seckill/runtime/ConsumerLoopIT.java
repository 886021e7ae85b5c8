package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.InfraAddresses;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one consume path on a real broker: poison to the dead-letter topic, the rest handled, offsets after the handler.
 */
class ConsumerLoopIT {

    private static final InfraAddresses INFRA = LocalInfrastructure.get().addresses();

    private static final int PARTITIONS = 12;

    @BeforeAll
    static void topics() {
        KafkaClients.ensureTopics(INFRA.kafka(), TopicLayout.of(PARTITIONS), KafkaClients.START_TIMEOUT);
    }

    @Test
    void theCatalogueExistsOnTheBrokerAndEnsuringItWithMorePartitionsLeavesItAsItIs() throws Exception {
        KafkaClients.ensureTopics(INFRA.kafka(), TopicLayout.of(PARTITIONS * 2), KafkaClients.START_TIMEOUT);
        try (Admin admin = Admin.create(KafkaClients.admin(INFRA.kafka()))) {
            Map<String, Integer> partitions = new HashMap<>();
            admin.describeTopics(Topic.all().stream().map(Topic::topicName).toList()).allTopicNames().get()
                    .forEach((name, description) -> partitions.put(name, description.partitions().size()));
            Topic.all().forEach(topic -> assertThat(partitions).containsEntry(topic.topicName(), PARTITIONS));
        }
    }

    // The loop runs in the background while the body waits on what it does; the body never calls it.
    @SuppressWarnings("try")
    @Test
    void aLoopIsReadyOnceAssignedAndSaysWhichPartitionsItHolds() {
        TestHost host = new TestHost();
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "loop-test"));
                ConsumerLoop<StockCompensation> loop = ConsumerLoop.start(
                        "loop-test",
                        consumer("ready"),
                        Topic.STOCK_COMPENSATIONS,
                        new DeadLetterPublisher(producer, "loop-test"),
                        batch -> {},
                        host.host())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> host.readiness().checks().get("loop-test").up());
            assertThat(host.readiness().checks().get("loop-test").detail())
                    .isEqualTo(Topic.STOCK_COMPENSATIONS.topicName()
                            + " partitions [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]");
        }
        assertThat(host.readiness().checks().get("loop-test").up()).isFalse();
    }

    // The loop runs in the background while the body waits on what it does; the body never calls it.
    @SuppressWarnings("try")
    @Test
    void aLoopThatCannotContinueReportsItselfFatal() {
        TestHost host = new TestHost();
        Properties noOffsetPolicy = consumer("fatal");
        noOffsetPolicy.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "loop-test"));
                ConsumerLoop<StockCompensation> loop = ConsumerLoop.start(
                        "loop-test",
                        noOffsetPolicy,
                        Topic.STOCK_COMPENSATIONS,
                        new DeadLetterPublisher(producer, "loop-test"),
                        batch -> {},
                        host.host())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !host.fatalFailures().isEmpty());
            assertThat(host.fatalFailures()).singleElement().asString()
                    .startsWith("loop-test: ").contains("NoOffsetForPartitionException");
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            host.readiness().checks().get("loop-test").detail().equals("stopped"));
        }
    }

    // The loop runs in the background while the body waits on what it does; the body never calls it.
    @SuppressWarnings("try")
    @Test
    void poisonIsDeadLetteredWithItsReasonAndValidRecordsAreHandledInOrder() throws Exception {
        long sku = System.nanoTime();
        byte[] poison = ("not a compensation " + sku).getBytes(StandardCharsets.UTF_8);
        StockCompensation first = compensation(sku);
        StockCompensation second = compensation(sku);
        List<StockCompensation> handled = new CopyOnWriteArrayList<>();
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "loop-test"));
                KafkaProbe kafka = new KafkaProbe(INFRA.kafka());
                ConsumerLoop<StockCompensation> loop = ConsumerLoop.start(
                        "loop-test",
                        consumer("poison"),
                        Topic.STOCK_COMPENSATIONS,
                        new DeadLetterPublisher(producer, "loop-test"),
                        batch -> batch.forEach(delivery -> {
                            if (delivery.value().skuId() == sku) {
                                handled.add(delivery.value());
                            }
                        }),
                        new TestHost().host())) {
            producer.send(Topic.STOCK_COMPENSATIONS.record(sku, first)).get();
            kafka.send(Topic.STOCK_COMPENSATIONS.topicName(), Long.toString(sku), poison);
            producer.send(Topic.STOCK_COMPENSATIONS.record(sku, second)).get();

            await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 2);
            assertThat(handled).containsExactly(first, second);
            List<ConsumerRecord<byte[], byte[]>> dead = kafka.readAll(Topic.DEAD_LETTERS.topicName()).stream()
                    .filter(record -> Arrays.equals(record.value(), poison)).toList();
            assertThat(dead).hasSize(1);
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.STAGE)).isEqualTo("loop-test");
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.SOURCE_TOPIC))
                    .isEqualTo(Topic.STOCK_COMPENSATIONS.topicName());
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.REASON))
                    .contains("undecodable StockCompensation");
        }
    }

    // The loop runs in the background while the body waits on what it does; the body never calls it.
    @SuppressWarnings("try")
    @Test
    void aBatchWhoseHandlerFailsIsDeliveredAgainAndCommittedOnlyOnceHandled() throws Exception {
        long sku = System.nanoTime();
        StockCompensation only = compensation(sku);
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicBoolean failedOnce = new AtomicBoolean();
        List<StockCompensation> handled = new CopyOnWriteArrayList<>();
        String group = "loop-test-retry-" + sku;
        TestHost host = new TestHost();
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "loop-test"));
                ConsumerLoop<StockCompensation> loop = ConsumerLoop.start(
                        "loop-test",
                        KafkaClients.consumer(INFRA.kafka(), group, "loop-test"),
                        Topic.STOCK_COMPENSATIONS,
                        new DeadLetterPublisher(producer, "loop-test"),
                        batch -> {
                            boolean ours = batch.stream()
                                    .anyMatch(delivery -> delivery.value().skuId() == sku);
                            if (ours && failing.get()) {
                                failedOnce.set(true);
                                throw new IllegalStateException("not this time");
                            }
                            batch.stream()
                                    .map(Delivery::value)
                                    .filter(value -> value.skuId() == sku)
                                    .forEach(handled::add);
                        },
                        host.host())) {
            RecordMetadata sent = producer.send(Topic.STOCK_COMPENSATIONS.record(sku, only)).get();
            TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
            await().atMost(Duration.ofSeconds(30)).until(() -> host.readiness().checks().get("loop-test").detail()
                    .equals("retrying a failed batch"));
            try (Admin admin = Admin.create(KafkaClients.admin(INFRA.kafka()))) {
                assertThat(handled).isEmpty();
                assertThat(committedOffset(admin, group, partition))
                        .as("committed while the handler fails")
                        .isLessThanOrEqualTo(sent.offset());
                failing.set(false);

                await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 1);
                assertThat(failedOnce).isTrue();
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(committedOffset(admin, group, partition))
                                .as("committed once handled")
                                .isGreaterThan(sent.offset()));
            }
        }
        assertThat(handled).containsExactly(only);
    }

    /** The group's committed offset of the partition, -1 while it has none. */
    private static long committedOffset(Admin admin, String group, TopicPartition partition) throws Exception {
        OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get()
                .get(partition);
        return committed == null ? -1 : committed.offset();
    }

    private static Properties consumer(String name) {
        return KafkaClients.consumer(INFRA.kafka(), "loop-test-" + name + "-" + UUID.randomUUID(), "loop-test");
    }

    private static StockCompensation compensation(long sku) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, "loop-user", 1, Instant.now());
        return StockCompensation.forRejected(OrderResult.rejected(order, RejectReason.SOLD_OUT, Instant.now()));
    }
}
