package io.seckill.runtime;

import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Sends a poison record, unchanged, to the dead-letter topic with the reason in its headers; waits for the ack. */
public final class DeadLetterPublisher {

    private final Producer<String, byte[]> producer;
    private final String stage;

    public DeadLetterPublisher(Producer<String, byte[]> producer, String stage) {
        this.producer = producer;
        this.stage = stage;
    }

    public void publish(ConsumerRecord<String, byte[]> poison, Throwable reason)
            throws ExecutionException, InterruptedException {
        RecordHeaders headers = new RecordHeaders(poison.headers().toArray());
        DeadLetterHeaders.describe(headers, stage, reason, poison.topic(), poison.partition(), poison.offset());
        producer.send(new ProducerRecord<>(Topic.DEAD_LETTERS.topicName(), null, poison.key(), poison.value(), headers))
                .get();
    }
}
