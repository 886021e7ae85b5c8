package io.seckill.reconciler.repair;

import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
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
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
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
 * <p>It never acts on a transaction a live producer may still own. Its coordinator must hold nothing in
 * progress for that producer id at any epoch (under KIP-890's protocol the epoch moves when a commit
 * starts, so a transaction being committed carries the next epoch), and one of these must prove it
 * abandoned:
 * <ul>
 *   <li>the coordinator ended that producer's transaction at a later epoch (committed, aborted, or timed
 *       out and aborted by the coordinator itself): it wrote every marker it owed before it said so, and
 *       the broker takes a transactional write only for a partition its coordinator holds in the ongoing
 *       transaction, so the partition waits for a marker that will never come. The usual trace of a broker
 *       crash, repaired at the next check once seen open twice;</li>
 *   <li>or the coordinator knows nothing of it: its last write is older than {@code after}, and this job
 *       has itself seen it open, unchanged, for {@code after} without a gap (a stall of the broker or of this
 *       process makes record times old, so observation starts over after any gap).</li>
 * </ul>
 *
 * The producer state and the coordinator are read again just before the abort. Each hanging one is logged by partition,
 * producer id, epoch and evidence, counted, and shown by the readiness check until gone.
 */
public final class HangingTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    /** Runs that may be missed before the observation starts over. */
    private static final int GAP_IN_CHECKS = 3;

    private static final Set<TransactionState> IN_PROGRESS = Set.of(
            TransactionState.ONGOING,
            TransactionState.PREPARE_COMMIT,
            TransactionState.PREPARE_ABORT,
            TransactionState.PREPARE_EPOCH_FENCE);
    private static final Set<TransactionState> ENDED =
            Set.of(TransactionState.COMPLETE_COMMIT, TransactionState.COMPLETE_ABORT, TransactionState.EMPTY);

    /** What proves an open transaction abandoned. */
    private enum Evidence {
        ENDED_BY_ITS_COORDINATOR("its coordinator ended that producer's transaction at a later epoch"),
        UNKNOWN_PAST_THE_BOUND("open past the bound, its coordinator holding nothing");

        private final String description;

        Evidence(String description) {
            this.description = description;
        }
    }

    private record Candidate(ProducerState producer, Evidence evidence) {
    }

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

    /**
     * @param checkInterval how often {@link #abortHanging} runs: a longer pause between runs is a gap in the
     * observation
     */
    HangingTransactions(Admin admin, Duration after, Duration checkInterval, Clock clock, ReconcilerMetrics metrics) {
        this.admin = admin;
        this.after = after;
        this.checkInterval = checkInterval;
        this.clock = clock;
        this.metrics = metrics;
        this.lastCompletedRunMillis = clock.millis();
    }

    /** Down while a hanging transaction could not be aborted. */
    public Readiness.CheckResult readiness() {
        List<String> left = unresolved;
        return left.isEmpty()
                ? Readiness.CheckResult.up("no hanging transaction")
                : Readiness.CheckResult.down("hanging: " + left);
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
            topic.partitions()
                    .forEach(partition -> partitions.add(new TopicPartition(topic.name(), partition.partition())));
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
            for (Candidate candidate : candidates(partition.getKey(), partition.getValue(), cutoff, now)) {
                ProducerState producer = candidate.producer();
                if (!stillHanging(partition.getKey(), candidate)) {
                    continue;
                }
                found++;
                String what = partition.getKey() + " producer " + producer.producerId() + " epoch "
                        + producer.producerEpoch() + " open since offset "
                        + producer.currentTransactionStartOffset().getAsLong();
                LOG.warn(
                        "hanging transaction on {} (last write {} ms ago; {}): aborting it",
                        what,
                        clock.millis() - producer.lastTimestamp(),
                        candidate.evidence().description);
                try {
                    admin.abortTransaction(new AbortTransactionSpec(
                                    partition.getKey(),
                                    producer.producerId(),
                                    (short) producer.producerEpoch(),
                                    producer.coordinatorEpoch().orElse(-1)))
                            .all()
                            .get();
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
        return new OpenTransaction(
                partition,
                producer.producerId(),
                producer.producerEpoch(),
                producer.currentTransactionStartOffset().getAsLong());
    }

    /**
     * Open transactions seen by an earlier check too (a live one commits long before the next), each with the evidence
     * to check it by: the coordinator's later ending, or, past the bound by their last write and this job's own
     * observation, the coordinator's silence. The coordinator is asked just before the abort.
     */
    private List<Candidate> candidates(TopicPartition partition, PartitionProducerState state, long cutoff, long now) {
        List<Candidate> candidates = new ArrayList<>();
        for (ProducerState producer : state.activeProducers()) {
            if (producer.currentTransactionStartOffset().isEmpty()) {
                continue;
            }
            Long seenSince = seenOpenSince.get(openTransaction(partition, producer));
            if (seenSince == null || seenSince == now) {
                continue;
            }
            boolean pastTheBound = producer.lastTimestamp() < cutoff && now - seenSince >= after.toMillis();
            candidates.add(new Candidate(
                    producer, pastTheBound ? Evidence.UNKNOWN_PAST_THE_BOUND : Evidence.ENDED_BY_ITS_COORDINATOR));
        }
        return candidates;
    }

    /**
     * Whether, among the coordinator's transactions of this producer id, one ended at an epoch after {@code epoch}.
     */
    private boolean endedLater(List<TransactionListing> coordinated, long producerId, int epoch)
            throws ExecutionException, InterruptedException {
        for (TransactionListing listing : coordinated) {
            if (!ENDED.contains(listing.state())) {
                continue;
            }
            TransactionDescription transaction = admin.describeTransactions(List.of(listing.transactionalId()))
                    .description(listing.transactionalId()).get();
            if (transaction.producerId() == producerId
                    && transaction.producerEpoch() > epoch
                    && ENDED.contains(transaction.state())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Read again just before the abort: the same transaction still open on the partition, its coordinator still holding
     * nothing, and the candidate's evidence still there.
     */
    private boolean stillHanging(TopicPartition partition, Candidate candidate)
            throws ExecutionException, InterruptedException {
        ProducerState seen = candidate.producer();
        boolean open =
                admin.describeProducers(List.of(partition)).partitionResult(partition).get().activeProducers().stream()
                        .anyMatch(producer -> producer.producerId() == seen.producerId()
                                && producer.producerEpoch() == seen.producerEpoch()
                                && producer.currentTransactionStartOffset()
                                        .equals(seen.currentTransactionStartOffset()));
        if (!open) {
            return false;
        }
        // One read of the coordinator for both questions: does it hold anything of this producer id, at any epoch, in
        // progress; and did it end one at a later epoch.
        List<TransactionListing> coordinated = admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(Set.of(seen.producerId()))).all().get().stream().toList();
        if (coordinated.stream().anyMatch(listing -> IN_PROGRESS.contains(listing.state()))) {
            return false;
        }
        return switch (candidate.evidence()) {
            case ENDED_BY_ITS_COORDINATOR -> endedLater(coordinated, seen.producerId(), seen.producerEpoch());
            case UNKNOWN_PAST_THE_BOUND -> true;
        };
    }

    /** The check on the reconciler's parts, logged in to Kafka as the repair's own principal. */
    public static HangingTransactions of(ReconcilerParts parts, RepairSettings settings) {
        return new HangingTransactions(parts.repairAdmin(), settings.hangingTransactionAfter(),
                settings.hangingTransactionCheckInterval(), parts.clock(), parts.metrics());
    }

    /** The job that aborts transactions left open past {@code after}. */
    public Job job() {
        return new Job("hanging transaction check", checkInterval, this::abortHanging);
    }
}
