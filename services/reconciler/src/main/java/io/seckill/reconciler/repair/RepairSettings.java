package io.seckill.reconciler.repair;

import io.seckill.config.Env;
import java.time.Duration;

/**
 * The repairs' settings: when the drift check runs and how many checks a drift must outlast, when a reservation counts
 * as leaked, how often Redis is watched for lost state and how long a rebuild lets orders settle, and when a Kafka
 * transaction counts as hanging. What each means and its default are in docs/configuration.md.
 */
public record RepairSettings(Duration driftCheckInterval, int driftRepairAfter, Duration leakSweepAfter,
                             Duration leakSweepInterval, Duration redisWatchInterval, Duration rebuildSettle,
                             Duration hangingTransactionAfter, Duration hangingTransactionCheckInterval) {

    public static RepairSettings from(Env env) {
        return new RepairSettings(
                env.millis("SECKILL_DRIFT_CHECK_INTERVAL_MS", Duration.ofSeconds(30)),
                env.integer("SECKILL_DRIFT_REPAIR_AFTER_CHECKS", 3),
                env.millis("SECKILL_LEAK_SWEEP_AFTER_MS", Duration.ofSeconds(7)),
                env.millis("SECKILL_LEAK_SWEEP_INTERVAL_MS", Duration.ofSeconds(1)),
                env.millis("SECKILL_REDIS_WATCH_INTERVAL_MS", Duration.ofSeconds(1)),
                rebuildSettle(env),
                env.millis("SECKILL_HANGING_TRANSACTION_AFTER_MS", Duration.ofMinutes(1)),
                env.millis("SECKILL_HANGING_TRANSACTION_CHECK_INTERVAL_MS", Duration.ofSeconds(10)));
    }

    /**
     * A second above the ingress's default outbox wait: an order reserved before the close is then recorded, or
     * fenced by its ingress, before the rebuild reads MySQL, so none is missing from the rebuilt ledger and its unit
     * sold again. An ingress given a longer SECKILL_OUTBOX_WAIT_MS wants a longer settle.
     */
    static Duration rebuildSettle(Env env) {
        return env.millis("SECKILL_REBUILD_SETTLE_MS", Duration.ofSeconds(4));
    }
}
