package io.seckill.reconciler;

import io.seckill.runtime.management.Readiness;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
 * read_committed readers (every consumer here) see nothing behind it. A transaction is hanging when its
 * last write is older than {@code after} (every producer here times its transactions out within
 * seconds) and its coordinator does not hold it as in progress for that producer, epoch and partition,
 * the check of Kafka's own {@code kafka-transactions find-hanging}. The coordinator's word matters: a
 * transaction it still holds (a broker that was paused, a producer that was slow) is its to end, and
 * aborting one partition of it under the coordinator would break its atomicity. Each hanging one is
 * logged by partition, producer id and epoch, counted, and shown by the readiness check until gone.
 */
final class HangingTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    private static final Set<TransactionState> IN_PROGRESS = Set.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT,
            TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    private final Admin admin;
    private final Duration after;
    private final Clock clock;
    private final ReconcilerMetrics metrics;
    private volatile List<String> unresolved = List.of();

    HangingTransactions(Admin admin, Duration after, Clock clock, ReconcilerMetrics metrics) {
        this.admin = admin;
        this.after = after;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Down while a hanging transaction could not be aborted. */
    Readiness.CheckResult readiness() {
        List<String> left = unresolved;
        return left.isEmpty() ? Readiness.CheckResult.up("no hanging transaction") : Readiness.CheckResult.down("hanging: " + left);
    }

    /** @return transactions aborted by this run */
    int abortHanging() throws ExecutionException, InterruptedException {
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
        for (var partition : admin.describeProducers(partitions).all().get().entrySet()) {
            for (ProducerState producer : hanging(partition.getKey(), partition.getValue(), cutoff)) {
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

    private List<ProducerState> hanging(TopicPartition partition, PartitionProducerState state, long cutoff)
            throws ExecutionException, InterruptedException {
        List<ProducerState> hanging = new ArrayList<>();
        for (ProducerState producer : state.activeProducers()) {
            if (producer.currentTransactionStartOffset().isPresent() && producer.lastTimestamp() < cutoff
                    && !coordinatorHolds(partition, producer)) {
                hanging.add(producer);
            }
        }
        return hanging;
    }

    /** Whether the producer's coordinator holds this partition in a transaction it has not finished, at this epoch. */
    private boolean coordinatorHolds(TopicPartition partition, ProducerState producer) throws ExecutionException, InterruptedException {
        for (TransactionListing listing : admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(Set.of(producer.producerId())).filterStates(IN_PROGRESS)).all().get()) {
            TransactionDescription transaction = admin.describeTransactions(List.of(listing.transactionalId()))
                    .description(listing.transactionalId()).get();
            if (transaction.producerId() == producer.producerId() && transaction.producerEpoch() == producer.producerEpoch()
                    && transaction.topicPartitions().contains(partition)) {
                return true;
            }
        }
        return false;
    }
}
