package io.seckill.dbsink;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.KafkaClients;

/**
 * SECKILL_SINK_GROUP_ID (seckill-db-sink), SECKILL_SINK_MAX_BATCH (1000), SECKILL_SINK_POOL_SIZE (4),
 * SECKILL_TOPIC_PARTITIONS (12).
 */
public record DbSinkConfig(InfraAddresses infra, String groupId, int maxBatch, int poolSize, int topicPartitions) {

    public static DbSinkConfig from(Env env, InfraAddresses infra) {
        return new DbSinkConfig(infra,
                env.string("SECKILL_SINK_GROUP_ID", "seckill-db-sink"),
                env.integer("SECKILL_SINK_MAX_BATCH", 1000),
                env.integer("SECKILL_SINK_POOL_SIZE", 4),
                KafkaClients.topicPartitions(env));
    }
}
