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
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * A transaction left open on a partition (its producer went quiet and nobody will end it) hides every
 * record behind it from read_committed readers. The reconciler finds it by its age, names it, aborts
 * it through the admin API, and the records behind it flow again.
 */
class HangingTransactionsIT {

    @Test
    void aTransactionLeftOpenIsAbortedAndTheRecordsBehindItAreReadable() throws Exception {
        String bootstrap = Stores.INFRA.kafkaBootstrap();
        KafkaClients.ensureTopics(bootstrap, 12, KafkaClients.START_TIMEOUT);
        String topic = Topic.STOCK_COMPENSATIONS.topicName();
        byte[] behind = ("behind a hanging transaction " + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
        Properties transactional = KafkaClients.producer(bootstrap, "hanging-test");
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "hanging-test-" + System.nanoTime());
        transactional.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 900_000);
        try (KafkaProducer<String, byte[]> abandoned = new KafkaProducer<>(transactional);
             KafkaProbe kafka = new KafkaProbe(bootstrap);
             Admin admin = Admin.create(KafkaClients.admin(bootstrap))) {
            abandoned.initTransactions();
            abandoned.beginTransaction();
            abandoned.send(new ProducerRecord<>(topic, 5, "hanging", "never committed".getBytes(StandardCharsets.UTF_8))).get();
            kafka.sendTo(topic, 5, behind);
            assertThat(kafka.readAll(topic)).noneMatch(record -> Arrays.equals(record.value(), behind));

            ReconcilerMetrics metrics = Stores.metrics();
            HangingTransactions hanging = new HangingTransactions(admin, Duration.ofSeconds(1), Clock.systemUTC(), metrics);
            await().atMost(Duration.ofSeconds(30)).until(() -> hanging.abortHanging() > 0);

            assertThat(kafka.readAll(topic)).anyMatch(record -> Arrays.equals(record.value(), behind));
            assertThat(hanging.readiness().up()).isTrue();
        }
    }
}
