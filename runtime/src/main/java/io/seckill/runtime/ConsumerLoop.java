package io.seckill.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer on its own thread that hands each polled batch to a handler and commits the offsets only
 * after the handler returned. When the handler throws, the consumer rewinds to the last committed
 * offsets and tries the same records again after a growing pause: at-least-once, nothing skipped.
 * Handlers are therefore idempotent, and they send poison to the dead-letter topic themselves.
 */
public final class ConsumerLoop implements AutoCloseable {

    /** Processes one batch; throwing means "not done, give me these records again". */
    @FunctionalInterface
    public interface BatchHandler {
        void handle(ConsumerRecords<String, byte[]> records) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final long MAX_BACKOFF_MS = 5_000;

    private final String name;
    private final KafkaConsumer<String, byte[]> consumer;
    private final BatchHandler handler;
    private final Thread thread;
    private volatile boolean running = true;

    private ConsumerLoop(String name, KafkaConsumer<String, byte[]> consumer, BatchHandler handler) {
        this.name = name;
        this.consumer = consumer;
        this.handler = handler;
        this.thread = new Thread(this::run, name);
    }

    public static ConsumerLoop start(String name, Properties consumerProps, String topic, BatchHandler handler) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps);
        consumer.subscribe(List.of(topic));
        ConsumerLoop loop = new ConsumerLoop(name, consumer, handler);
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
                    handler.handle(records);
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
