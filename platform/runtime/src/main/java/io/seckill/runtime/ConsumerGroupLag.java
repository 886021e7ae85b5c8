package io.seckill.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Lag of every consumer group of the cluster (the stream-processor's, the sink's, the reconciler's):
 * the records between each partition's committed offset and its end, summed per group. Under
 * exactly-once the end includes transaction markers, so an idle group shows a lag of a few records.
 * Each request to the cluster waits at most {@code timeout}: a cluster that does not answer fails the
 * measurement instead of holding its caller.
 */
public record ConsumerGroupLag(Admin admin, Duration timeout) {

    public Map<String, Long> measure() throws ExecutionException, InterruptedException, TimeoutException {
        Map<String, ListConsumerGroupOffsetsSpec> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                .collect(Collectors.toMap(GroupListing::groupId, group -> new ListConsumerGroupOffsetsSpec()));
        if (groups.isEmpty()) {
            return Map.of();
        }
        // One request for every group's offsets, one for every partition's end.
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
                admin.listConsumerGroupOffsets(groups).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, OffsetSpec> ends = committed.values().stream()
                .flatMap(offsets -> offsets.keySet().stream())
                .distinct()
                .collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> endOffsets =
                admin.listOffsets(ends).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<String, Long> lag = new HashMap<>();
        committed.forEach((group, offsets) -> lag.put(group, offsets.entrySet().stream()
                .filter(entry -> entry.getValue() != null && endOffsets.containsKey(entry.getKey()))
                .mapToLong(entry -> Math.max(0, endOffsets.get(entry.getKey()).offset() - entry.getValue().offset()))
                .sum()));
        return lag;
    }
}
