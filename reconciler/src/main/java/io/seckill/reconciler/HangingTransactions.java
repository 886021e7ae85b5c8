package io.seckill.reconciler;

import io.seckill.runtime.management.Readiness;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds transactions left open on a partition of the catalogued topics longer than {@code after} and
 * aborts them through the admin API (KIP-664). An open transaction holds the partition's last stable
 * offset: read_committed readers (every consumer here) see nothing behind it, so a transaction its
 * coordinator lost track of stalls the partition for good. Every producer here times out its
 * transactions within seconds and the coordinator aborts those itself, so one still open after
 * {@code after} (a minute by default) is one nobody will end. Each is logged by partition, producer id
 * and epoch, counted, and shown by the readiness check until it is gone.
 */
final class HangingTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);

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
        for (TopicDescription topic : admin.describeTopics(Topic.all().stream().map(Topic::topicName).toList()).allTopicNames().get().values()) {
            topic.partitions().forEach(partition -> partitions.add(new TopicPartition(topic.name(), partition.partition())));
        }
        long cutoff = clock.millis() - after.toMillis();
        List<String> failed = new ArrayList<>();
        int aborted = 0;
        int found = 0;
        for (var partition : admin.describeProducers(partitions).all().get().entrySet()) {
            for (ProducerState producer : hanging(partition.getValue(), cutoff)) {
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

    private static List<ProducerState> hanging(PartitionProducerState state, long cutoff) {
        return state.activeProducers().stream()
                .filter(producer -> producer.currentTransactionStartOffset().isPresent() && producer.lastTimestamp() < cutoff)
                .toList();
    }
}
