package io.seckill.runtime;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.runtime.management.FatalFailures;
import io.seckill.runtime.management.Readiness;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer of one topic on its own thread. Each polled record is decoded as its topic says; one that
 * does not decode into a valid value goes to the dead-letter topic with the reason, the others are
 * handed to the handler as one batch, and the offsets are committed only after the handler returned.
 * When the handler (or a dead-letter send) throws, the consumer rewinds to the last committed offsets
 * and tries the same records again after a growing pause: at-least-once, nothing skipped. Handlers are
 * therefore idempotent. A broker that cannot be reached is waited out the same way (the loop reports
 * not-ready meanwhile); anything else that stops the loop is reported to the host as fatal, so that the
 * process exits rather than stay alive doing nothing.
 */
public final class ConsumerLoop<V> implements AutoCloseable {

    /** Processes one batch of valid values; throwing means "not done, give me these records again". */
    @FunctionalInterface
    public interface BatchHandler<V> {
        void handle(List<Delivery<V>> batch) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);
    private static final Duration POLL_FAILURE_LIMIT = Duration.ofMinutes(2);

    private final String name;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Topic<V> topic;
    private final DeadLetterPublisher deadLetters;
    private final BatchHandler<V> handler;
    private final FatalFailures fatal;
    private final KafkaClientMetrics clientMetrics;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile SortedSet<Integer> assigned = new TreeSet<>();
    /** Why the loop is not moving, as /ready shows it; the exception itself is in the log. */
    private volatile String failing;

    private ConsumerLoop(
            String name,
            KafkaConsumer<String, byte[]> consumer,
            Topic<V> topic,
            DeadLetterPublisher deadLetters,
            BatchHandler<V> handler,
            ServiceHost host) {
        this.name = name;
        this.consumer = consumer;
        this.topic = topic;
        this.deadLetters = deadLetters;
        this.handler = handler;
        this.fatal = host.fatal();
        this.clientMetrics = new KafkaClientMetrics(consumer);
        this.thread = new Thread(this::run, name);
    }

    /** Starts consuming; the loop's readiness check (alive, assigned, not failing) is added under {@code name}. */
    public static <V> ConsumerLoop<V> start(
            String name,
            Properties consumerProps,
            Topic<V> topic,
            DeadLetterPublisher deadLetters,
            BatchHandler<V> handler,
            ServiceHost host) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps);
        ConsumerLoop<V> loop = new ConsumerLoop<>(name, consumer, topic, deadLetters, handler, host);
        consumer.subscribe(List.of(topic.topicName()), loop.new AssignmentTracker());
        loop.clientMetrics.bindTo(host.meters());
        host.readiness().add(name, loop::readiness);
        loop.thread.start();
        return loop;
    }

    private Readiness.CheckResult readiness() {
        if (!thread.isAlive()) {
            return Readiness.CheckResult.down("stopped");
        }
        String failure = failing;
        if (failure != null) {
            return Readiness.CheckResult.down(failure);
        }
        SortedSet<Integer> partitions = assigned;
        if (partitions.isEmpty()) {
            return Readiness.CheckResult.down("no partition of " + topic.topicName() + " assigned");
        }
        return Readiness.CheckResult.up(topic.topicName() + " partitions " + partitions);
    }

    private void run() {
        GrowingPause pause = new GrowingPause(FIRST_PAUSE, LONGEST_PAUSE);
        try {
            while (running) {
                ConsumerRecords<String, byte[]> records = poll();
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    List<Delivery<V>> valid = decodeOrDeadLetter(records);
                    if (!valid.isEmpty()) {
                        handler.handle(valid);
                    }
                    consumer.commitSync();
                    failing = null;
                    pause.reset();
                } catch (WakeupException e) {
                    throw e;
                } catch (Exception e) {
                    failing = "retrying a failed batch";
                    LOG.warn(
                            "{}: batch of {} records failed, retrying in {} ms",
                            name,
                            records.count(),
                            pause.nextMillis(),
                            e);
                    pause.sleep();
                    rewindToCommitted();
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // close() asked us to stop.
        } catch (RuntimeException e) {
            fatal.cannotContinue(name, e);
        } finally {
            consumer.close();
        }
    }

    /**
     * One poll. The group protocol can fail a poll for a while after a broker outage (a coordinator
     * still loading its state answers "unexpected error from SyncGroup"): a transient failure is waited
     * out like an unreachable broker, not-ready meanwhile, and only one that keeps failing for
     * {@link #POLL_FAILURE_LIMIT} ends the loop; any other ends it at once.
     */
    private ConsumerRecords<String, byte[]> poll() throws InterruptedException {
        GrowingPause pause = new GrowingPause(FIRST_PAUSE, LONGEST_PAUSE);
        long failingSince = 0;
        while (true) {
            try {
                ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
                if (failingSince != 0) {
                    failing = null;
                }
                return records;
            } catch (WakeupException | InterruptException e) {
                throw e;
            } catch (KafkaException e) {
                long now = System.nanoTime();
                failingSince = failingSince == 0 ? now : failingSince;
                if (!transientPollFailure(e) || now - failingSince > POLL_FAILURE_LIMIT.toNanos()) {
                    throw e;
                }
                failing = "polling failed";
                LOG.warn("{}: poll failed, trying again in {} ms", name, pause.nextMillis(), e);
                pause.sleep();
            }
        }
    }

    /**
     * A retriable error, or the bare KafkaException the group protocol wraps an error it did not expect
     * in (a coordinator still loading); a specific one (no offset and no reset policy, not authorized,
     * an unknown topic name) will not go away by waiting.
     */
    private static boolean transientPollFailure(KafkaException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RetriableException) {
                return true;
            }
        }
        return failure.getClass() == KafkaException.class;
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

    /** Back to the committed offsets; while the broker cannot answer, tries again after a growing pause. */
    private void rewindToCommitted() throws InterruptedException {
        GrowingPause pause = new GrowingPause(FIRST_PAUSE, LONGEST_PAUSE);
        while (running) {
            try {
                seekToCommitted();
                return;
            } catch (RetriableException e) {
                failing = "cannot read committed offsets";
                LOG.warn("{}: cannot read the committed offsets, trying again in {} ms", name, pause.nextMillis(), e);
                pause.sleep();
            }
        }
    }

    private void seekToCommitted() {
        Set<TopicPartition> partitions = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(partitions);
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset != null) {
                consumer.seek(partition, offset);
            } else {
                consumer.seekToBeginning(List.of(partition));
            }
        }
    }

    /**
     * Keeps the assigned partitions where the readiness check can read them: the consumer itself is single-threaded.
     */
    private final class AssignmentTracker implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            SortedSet<Integer> remaining = new TreeSet<>(assigned);
            partitions.forEach(partition -> remaining.remove(partition.partition()));
            assigned = remaining;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            SortedSet<Integer> now = new TreeSet<>(assigned);
            partitions.forEach(partition -> now.add(partition.partition()));
            assigned = now;
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            onPartitionsRevoked(partitions);
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
        clientMetrics.close();
    }
}
