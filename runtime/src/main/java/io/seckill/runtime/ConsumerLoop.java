package io.seckill.runtime;

import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer of one topic on its own thread. Each polled record is decoded as its topic says; one that
 * does not decode into a valid value goes to the dead-letter topic with the reason, the others are
 * handed to the handler as one batch, and the offsets are committed only after the handler returned.
 * When the handler (or a dead-letter send) throws, the consumer rewinds to the last committed offsets
 * and tries the same records again after a growing pause: at-least-once, nothing skipped. Handlers are
 * therefore idempotent.
 */
public final class ConsumerLoop<V> implements AutoCloseable {

    /** Processes one batch of valid values; throwing means "not done, give me these records again". */
    @FunctionalInterface
    public interface BatchHandler<V> {
        void handle(List<Delivery<V>> batch) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final long MAX_BACKOFF_MS = 5_000;

    private final String name;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Topic<V> topic;
    private final DeadLetterPublisher deadLetters;
    private final BatchHandler<V> handler;
    private final Thread thread;
    private volatile boolean running = true;

    private ConsumerLoop(String name, KafkaConsumer<String, byte[]> consumer, Topic<V> topic, DeadLetterPublisher deadLetters,
                         BatchHandler<V> handler) {
        this.name = name;
        this.consumer = consumer;
        this.topic = topic;
        this.deadLetters = deadLetters;
        this.handler = handler;
        this.thread = new Thread(this::run, name);
    }

    public static <V> ConsumerLoop<V> start(String name, Properties consumerProps, Topic<V> topic,
                                            DeadLetterPublisher deadLetters, BatchHandler<V> handler) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps);
        consumer.subscribe(List.of(topic.topicName()));
        ConsumerLoop<V> loop = new ConsumerLoop<>(name, consumer, topic, deadLetters, handler);
        loop.thread.start();
        return loop;
    }

    private void run() {
        long backoffMs = 100;
        try {
            while (running) {
                ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    List<Delivery<V>> valid = decodeOrDeadLetter(records);
                    if (!valid.isEmpty()) {
                        handler.handle(valid);
                    }
                    consumer.commitSync();
                    backoffMs = 100;
                } catch (WakeupException e) {
                    throw e;
                } catch (Exception e) {
                    LOG.warn("{}: batch of {} records failed, retrying in {} ms", name, records.count(), backoffMs, e);
                    rewindToCommitted();
                    Thread.sleep(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // close() asked us to stop.
        } catch (RuntimeException e) {
            LOG.error("{}: consumer loop died", name, e);
        } finally {
            consumer.close();
        }
    }

    private List<Delivery<V>> decodeOrDeadLetter(ConsumerRecords<String, byte[]> records) throws Exception {
        List<Delivery<V>> valid = new ArrayList<>(records.count());
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                valid.add(new Delivery<>(topic.decode(record.value()), record));
            } catch (InvalidEventException poison) {
                deadLetters.publish(record, poison);
            }
        }
        return valid;
    }

    private void rewindToCommitted() {
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
        for (TopicPartition partition : assigned) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset != null) {
                consumer.seek(partition, offset);
            } else {
                consumer.seekToBeginning(List.of(partition));
            }
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
