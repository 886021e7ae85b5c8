package io.seckill.runtime;

import io.seckill.config.KafkaAccess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes raw records onto topics and reads topics back, as a test outside the services would. */
public final class KafkaProbe implements AutoCloseable {

    private final KafkaAccess kafka;
    private final KafkaProducer<byte[], byte[]> producer;

    /**
     * @param kafka the brokers, reached as a principal that may write and read what the test does (the operator's, in
     * tests)
     */
    public KafkaProbe(KafkaAccess kafka) {
        this.kafka = kafka;
        Properties props = kafka.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public void send(String topic, String key, byte[] value) {
        send(topic, key, value, new RecordHeaders());
    }

    /** Sends with headers (a dead letter's, say). */
    public void send(String topic, String key, byte[] value, Headers headers) {
        try {
            producer.send(new ProducerRecord<>(topic, null, key.getBytes(StandardCharsets.UTF_8), value, headers))
                    .get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /** Sends to one partition, without a key. */
    public void sendTo(String topic, int partition, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, null, value)).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot send to " + topic + "-" + partition, e);
        }
    }

    /** Every record on the topic right now, from the beginning of each partition to its end. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties props = kafka.clientProperties();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            Instant deadline = Instant.now().plusSeconds(30);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))
                    && Instant.now().isBefore(deadline)) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
