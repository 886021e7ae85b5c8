package io.seckill.reconciler;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaSecurity;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.runtime.TopicLayout;
import java.time.Duration;

/**
 * The reconciler's settings, read once at start: each job's schedule and bounds, its pools, and the Kafka login of the
 * hanging-transaction repair ({@link KafkaSecurity#repairFrom}), which is not the reconciler's own. What each setting
 * means and its default are in docs/configuration.md.
 */
public record ReconcilerConfig(InfraAddresses infra, RelayBackoff relayBackoff, int relayMaxAttempts,
                               Duration relayInterval, int relayBatch,
                               Duration outboxRetention, Duration outboxPurgeInterval,
                               Duration driftCheckInterval, int driftRepairAfter, Duration figuresInterval,
                               Duration leakSweepAfter, Duration leakSweepInterval,
                               Duration redisWatchInterval, Duration rebuildSettle,
                               Duration hangingTransactionAfter, Duration hangingTransactionCheckInterval,
                               Duration expiryInterval, int expiryBatch,
                               int poolSize, int redisPoolSize, Duration orderStatusTtl, TopicLayout topics,
                               DeploymentMode mode, KafkaAccess repairKafka) {

    public static ReconcilerConfig from(Env env, InfraAddresses infra) {
        return new ReconcilerConfig(infra,
                new RelayBackoff(Outbox.relayGrace(env),
                        env.millis("SECKILL_RELAY_MAX_BACKOFF_MS", Duration.ofMinutes(5))),
                env.integer("SECKILL_RELAY_MAX_ATTEMPTS", 12),
                env.millis("SECKILL_RELAY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_RELAY_BATCH", 500),
                env.millis("SECKILL_OUTBOX_RETENTION_MS", Duration.ofDays(7)),
                env.millis("SECKILL_OUTBOX_PURGE_INTERVAL_MS", Duration.ofMinutes(1)),
                env.millis("SECKILL_DRIFT_CHECK_INTERVAL_MS", Duration.ofSeconds(30)),
                env.integer("SECKILL_DRIFT_REPAIR_AFTER_CHECKS", 3),
                env.millis("SECKILL_FIGURES_INTERVAL_MS", Duration.ofSeconds(5)),
                env.millis("SECKILL_LEAK_SWEEP_AFTER_MS", Duration.ofSeconds(7)),
                env.millis("SECKILL_LEAK_SWEEP_INTERVAL_MS", Duration.ofSeconds(1)),
                env.millis("SECKILL_REDIS_WATCH_INTERVAL_MS", Duration.ofSeconds(1)),
                rebuildSettle(env),
                env.millis("SECKILL_HANGING_TRANSACTION_AFTER_MS", Duration.ofMinutes(1)),
                env.millis("SECKILL_HANGING_TRANSACTION_CHECK_INTERVAL_MS", Duration.ofSeconds(10)),
                env.millis("SECKILL_EXPIRY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_EXPIRY_BATCH", 500),
                env.integer("SECKILL_RECONCILER_POOL_SIZE", 8),
                env.integer("SECKILL_REDIS_POOL_SIZE", 16),
                OrderStatusStore.ttl(env),
                TopicLayout.from(env),
                DeploymentMode.of(env),
                new KafkaAccess(infra.kafkaBootstrap(), KafkaSecurity.repairFrom(env)));
    }

    /**
     * A second above the ingress's default outbox wait: an order reserved before the close is then recorded, or
     * fenced by its ingress, before the rebuild reads MySQL, so none is missing from the rebuilt ledger and its unit
     * sold again.
     * An ingress given a longer SECKILL_OUTBOX_WAIT_MS wants a longer settle.
     */
    static Duration rebuildSettle(Env env) {
        return env.millis("SECKILL_REBUILD_SETTLE_MS", Duration.ofSeconds(4));
    }
}
