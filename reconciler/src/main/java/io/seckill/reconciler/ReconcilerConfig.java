package io.seckill.reconciler;

import io.seckill.runtime.Env;
import io.seckill.runtime.InfraAddresses;
import java.time.Duration;

/**
 * SECKILL_RELAY_GRACE_MS (10000): how long an outbox row may wait for its order to be decided before
 * the relay re-sends it (and between re-sends); SECKILL_RELAY_INTERVAL_MS (1000); SECKILL_RELAY_BATCH (500);
 * SECKILL_DRIFT_CHECK_INTERVAL_MS (30000); SECKILL_RECONCILER_POOL_SIZE (4);
 * SECKILL_ORDER_STATUS_TTL_MS (86400000): how long order statuses stay in Redis for polling buyers.
 */
public record ReconcilerConfig(InfraAddresses infra, Duration relayGrace, Duration relayInterval, int relayBatch,
                               Duration driftCheckInterval, int poolSize, Duration orderStatusTtl) {

    public static ReconcilerConfig from(Env env, InfraAddresses infra) {
        return new ReconcilerConfig(infra,
                env.millis("SECKILL_RELAY_GRACE_MS", Duration.ofSeconds(10)),
                env.millis("SECKILL_RELAY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_RELAY_BATCH", 500),
                env.millis("SECKILL_DRIFT_CHECK_INTERVAL_MS", Duration.ofSeconds(30)),
                env.integer("SECKILL_RECONCILER_POOL_SIZE", 4),
                env.millis("SECKILL_ORDER_STATUS_TTL_MS", Duration.ofHours(24)));
    }
}
