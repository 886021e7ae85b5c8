package io.seckill.dbsink;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaGroups;
import io.seckill.runtime.TopicLayout;
import java.time.Duration;

/**
 * SECKILL_SINK_GROUP_ID (seckill-db-sink), SECKILL_SINK_MAX_BATCH (1000), SECKILL_SINK_POOL_SIZE (4),
 * SECKILL_SALE_WINDOW_TOLERANCE_MS (15000): how far outside its sale's window, by MySQL's clock, an
 * order may have been recorded and still be sold, SECKILL_PAYMENT_WINDOW_MS (900000): how long a confirmed
 * order awaits payment before it expires, the topics' layout ({@link TopicLayout}).
 */
public record DbSinkConfig(
        InfraAddresses infra,
        String groupId,
        int maxBatch,
        int poolSize,
        Duration saleWindowTolerance,
        Duration paymentWindow,
        TopicLayout topics) {

    public static DbSinkConfig from(Env env, InfraAddresses infra) {
        return new DbSinkConfig(infra,
                KafkaGroups.from(env).sinkGroup(),
                env.integer("SECKILL_SINK_MAX_BATCH", 1000),
                env.integer("SECKILL_SINK_POOL_SIZE", 4),
                env.millis("SECKILL_SALE_WINDOW_TOLERANCE_MS", Duration.ofSeconds(15)),
                env.millis("SECKILL_PAYMENT_WINDOW_MS", Duration.ofMinutes(15)),
                TopicLayout.from(env));
    }
}
