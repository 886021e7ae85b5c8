package io.seckill.dbsink;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;

/** SECKILL_SINK_GROUP_ID (seckill-db-sink), SECKILL_SINK_MAX_BATCH (1000), SECKILL_SINK_POOL_SIZE (4). */
public record DbSinkConfig(InfraAddresses infra, String groupId, int maxBatch, int poolSize) {

    public static DbSinkConfig from(Env env, InfraAddresses infra) {
        return new DbSinkConfig(infra,
                env.string("SECKILL_SINK_GROUP_ID", "seckill-db-sink"),
                env.integer("SECKILL_SINK_MAX_BATCH", 1000),
                env.integer("SECKILL_SINK_POOL_SIZE", 4));
    }
}
