package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/**
 * Records refused by their source check, forged with a service's credential, cost a bounded number of dead letters:
 * each is counted, and only the minute's first of each topic and reason reach the dead-letter topic (and from there
 * MySQL).
 */
class UnsupportedRecordsIT {

    private static final LocalInfrastructure INFRA = LocalInfrastructure.get();

    @Test
    void aFloodOfRefusedRecordsIsCountedWholeAndDeadLetteredAMinutesSample() throws Exception {
        KafkaAccess sink = INFRA.addressesFor(KafkaPrincipal.DB_SINK).kafka();
        KafkaClients.ensureTopics(INFRA.addresses().kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        String marker = "forged-" + System.nanoTime();
        int flood = 3 * UnsupportedRecords.DEAD_LETTERED_PER_MINUTE;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.producer(sink, "refusal-test"));
             KafkaProbe operator = new KafkaProbe(INFRA.addresses().kafka())) {
            UnsupportedRecords refusals =
                    new UnsupportedRecords(new DeadLetterPublisher(producer, "db-sink"), meters, "db-sink");

            for (int i = 0; i < flood; i++) {
                refusals.refuse(
                        new ConsumerRecord<>(
                                Topic.ORDERS_UNIQUE.topicName(),
                                i % 12,
                                i,
                                "key",
                                (marker + " " + i).getBytes(StandardCharsets.UTF_8)),
                        UnsupportedRecords.Reason.NO_OUTBOX_ROW,
                        "order " + i + " was never recorded");
            }

            assertThat(meters.find("seckill.records.refused")
                            .tag("reason", "NO_OUTBOX_ROW")
                            .counter()
                            .count())
                    .isEqualTo(flood);
            assertThat(operator.readAll(Topic.DEAD_LETTERS.topicName()).stream()
                    .filter(record -> new String(record.value(), StandardCharsets.UTF_8).startsWith(marker + " ")))
                    .hasSize(UnsupportedRecords.DEAD_LETTERED_PER_MINUTE);
        }
    }
}
