package io.seckill.reconciler;

import io.seckill.runtime.management.Readiness;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds transactions left open on a partition of any topic of the cluster (the catalogued ones, the
 * changelogs Kafka Streams restores its stores from, and the consumer offsets a transaction commits,
 * which keep a group's committed offsets unreadable while open) that nobody will end, and aborts
 * them through the admin API (KIP-664). An open transaction holds the partition's last stable offset:
 * read_committed readers (every consumer here) see nothing behind it.
 *
 * <p>It never acts on a transaction a live producer may still own. A transaction is hanging only when
 * all of these hold: its last write is older than {@code after}; this job has itself seen it open,
 * unchanged, for {@code after} without a gap (a stall of the broker or of this process makes record
 * times old, so observation starts over after any gap); and its coordinator holds nothing in progress
 * for that producer id at any epoch (under KIP-890's protocol the epoch moves when a commit starts, so
 * a transaction being committed carries the next epoch). The producer state and the coordinator are
 * read again just before the abort. Each hanging one is logged by partition, producer id and epoch,
 * counted, and shown by the readiness check until gone.
 */
final class HangingTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    /** Runs that may be missed before the observation starts over. */
    private static final int GAP_IN_CHECKS = 3;
    private static final Set<TransactionState> IN_PROGRESS = Set.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT,
            TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    private final Admin admin;
    private final Duration after;
    private final Clock clock;
    private final ReconcilerMetrics metrics;
    private volatile List<String> unresolved = List.of();
    /** Open transactions seen, by partition, producer and start offset: when this job first saw each (clock millis). */
    private Map<OpenTransaction, Long> seenOpenSince = new HashMap<>();
    private final Duration checkInterval;
    private long lastCompletedRunMillis;

    private record OpenTransaction(TopicPartition partition, long producerId, int epoch, long startOffset) {
    }

    /** @param checkInterval how often {@link #abortHanging} runs: a longer pause between runs is a gap in the observation */
    HangingTransactions(Admin admin, Duration after, Duration checkInterval, Clock clock, ReconcilerMetrics metrics) {
        this.admin = admin;
        this.after = after;
        this.checkInterval = checkInterval;
        this.clock = clock;
        this.metrics = metrics;
        this.lastCompletedRunMillis = clock.millis();
    }

    /** Down while a hanging transaction could not be aborted. */
    Readiness.CheckResult readiness() {
        List<String> left = unresolved;
        return left.isEmpty() ? Readiness.CheckResult.up("no hanging transaction") : Readiness.CheckResult.down("hanging: " + left);
    }

    /** @return transactions aborted by this run */
    int abortHanging() throws ExecutionException, InterruptedException {
        long started = clock.millis();
        if (started - lastCompletedRunMillis > GAP_IN_CHECKS * checkInterval.toMillis()) {
            // A gap (a stalled broker, this process paused, checks failing): what was seen before proves nothing now.
            seenOpenSince = new HashMap<>();
        }
        int aborted = abortHanging(started);
        lastCompletedRunMillis = clock.millis();
        return aborted;
    }

    private int abortHanging(long now) throws ExecutionException, InterruptedException {
        List<TopicPartition> partitions = new ArrayList<>();
        Set<String> topics = new HashSet<>(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get());
        // Its coordinator's own log: markers are not written there.
        topics.remove(Topic.TRANSACTION_STATE_TOPIC_NAME);
        for (TopicDescription topic : admin.describeTopics(topics).allTopicNames().get().values()) {
            topic.partitions().forEach(partition -> partitions.add(new TopicPartition(topic.name(), partition.partition())));
        }
        long cutoff = clock.millis() - after.toMillis();
        List<String> failed = new ArrayList<>();
        int aborted = 0;
        int found = 0;
        Map<TopicPartition, PartitionProducerState> states = admin.describeProducers(partitions).all().get();
        Map<OpenTransaction, Long> stillOpen = new HashMap<>();
        for (var partition : states.entrySet()) {
            for (ProducerState producer : partition.getValue().activeProducers()) {
                if (producer.currentTransactionStartOffset().isPresent()) {
                    OpenTransaction open = openTransaction(partition.getKey(), producer);
                    stillOpen.put(open, seenOpenSince.getOrDefault(open, now));
                }
            }
        }
        seenOpenSince = stillOpen;
        for (var partition : states.entrySet()) {
            for (ProducerState producer : hanging(partition.getKey(), partition.getValue(), cutoff, now)) {
                if (!stillHanging(partition.getKey(), producer)) {
                    continue;
                }
                found++;
                String what = partition.getKey() + " producer " + producer.producerId() + " epoch " + producer.producerEpoch()
                        + " open since offset " + producer.currentTransactionStartOffset().getAsLong();
                LOG.warn("hanging transaction on {} (last write {} ms ago): aborting it", what, clock.millis() - producer.lastTimestamp());
                try {
                    admin.abortTransaction(new AbortTransactionSpec(partition.getKey(), producer.producerId(), (short) producer.producerEpoch(),
                            producer.coordinatorEpoch().orElse(-1))).all().get();
                    aborted++;
                } catch (ExecutionException e) {
                    LOG.error("cannot abort the hanging transaction on {}", what, e.getCause());
                    failed.add(what);
                }
            }
        }
        unresolved = List.copyOf(failed);
        metrics.hangingTransactions(found, aborted);
        return aborted;
    }

    private static OpenTransaction openTransaction(TopicPartition partition, ProducerState producer) {
        return new OpenTransaction(partition, producer.producerId(), producer.producerEpoch(), producer.currentTransactionStartOffset().getAsLong());
    }

    /** Open past the bound by their last write and by this job's own observation; the coordinator is asked just before the abort. */
    private List<ProducerState> hanging(TopicPartition partition, PartitionProducerState state, long cutoff, long now) {
        List<ProducerState> hanging = new ArrayList<>();
        for (ProducerState producer : state.activeProducers()) {
            if (producer.currentTransactionStartOffset().isEmpty() || producer.lastTimestamp() >= cutoff) {
                continue;
            }
            Long seenSince = seenOpenSince.get(openTransaction(partition, producer));
            if (seenSince != null && now - seenSince >= after.toMillis()) {
                hanging.add(producer);
            }
        }
        return hanging;
    }

    /** Whether the producer's coordinator holds any transaction of this producer id unfinished, at any epoch. */
    private boolean coordinatorHoldsAny(long producerId) throws ExecutionException, InterruptedException {
        return !admin.listTransactions(new ListTransactionsOptions().filterProducerIds(Set.of(producerId)).filterStates(IN_PROGRESS))
                .all().get().isEmpty();
    }

    /** Read again just before the abort: the same transaction still open on the partition, its coordinator still holding nothing. */
    private boolean stillHanging(TopicPartition partition, ProducerState seen) throws ExecutionException, InterruptedException {
        boolean open = admin.describeProducers(List.of(partition)).partitionResult(partition).get().activeProducers().stream()
                .anyMatch(producer -> producer.producerId() == seen.producerId() && producer.producerEpoch() == seen.producerEpoch()
                        && producer.currentTransactionStartOffset().equals(seen.currentTransactionStartOffset()));
        return open && !coordinatorHoldsAny(seen.producerId());
    }
}
