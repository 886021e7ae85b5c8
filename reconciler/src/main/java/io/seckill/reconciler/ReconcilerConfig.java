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
 * SECKILL_RELAY_GRACE_MS (10000), SECKILL_RELAY_INTERVAL_MS (1000), SECKILL_RELAY_BATCH (500),
 * SECKILL_RELAY_MAX_BACKOFF_MS (300000): the longest wait between two sends of one order,
 * SECKILL_RELAY_MAX_ATTEMPTS (12): sends of one order before it is rejected as UNDELIVERED,
 * SECKILL_OUTBOX_RETENTION_MS (604800000): how long completed outbox rows are kept,
 * SECKILL_OUTBOX_PURGE_INTERVAL_MS (60000), SECKILL_DRIFT_CHECK_INTERVAL_MS (30000),
 * SECKILL_DRIFT_REPAIR_AFTER_CHECKS (3): checks in a row that must see the same drift at rest before it is repaired,
 * SECKILL_FIGURES_INTERVAL_MS (5000): how often the outbox backlog and consumer lag are measured,
 * SECKILL_LEAK_SWEEP_AFTER_MS (7000): how long a reservation may stay unsettled before the sweep settles it (the ingress's
 * outbox wait and fence wait, plus a second: a live ingress settles its own winners first),
 * SECKILL_REBUILD_SETTLE_MS (4000): how long a rebuild keeps a lost sale closed before it reads MySQL ({@link #rebuildSettle}),
 * SECKILL_HANGING_TRANSACTION_AFTER_MS (60000): how long a transaction may stay open on a partition before it is aborted,
 * by a Kafka login of the repair's own (SECKILL_KAFKA_REPAIR_USER, SECKILL_KAFKA_REPAIR_PASSWORD: {@link KafkaSecurity#repairFrom}),
 * SECKILL_EXPIRY_INTERVAL_MS (1000): how often confirmed orders past their payment deadline are expired,
 * SECKILL_EXPIRY_BATCH (500): orders expired per transaction,
 * SECKILL_HANGING_TRANSACTION_CHECK_INTERVAL_MS (10000), SECKILL_LEAK_SWEEP_INTERVAL_MS (1000), SECKILL_REDIS_WATCH_INTERVAL_MS (1000): how often Redis is checked for lost state, SECKILL_RECONCILER_POOL_SIZE (8), SECKILL_REDIS_POOL_SIZE (16), SECKILL_ORDER_STATUS_TTL_MS (86400000), the topics' layout ({@link TopicLayout}).
 */
public record ReconcilerConfig(InfraAddresses infra, RelayBackoff relayBackoff, int relayMaxAttempts, Duration relayInterval,
                               int relayBatch,
                               Duration outboxRetention, Duration outboxPurgeInterval, Duration driftCheckInterval,
                               int driftRepairAfter,
                               Duration figuresInterval, Duration leakSweepAfter, Duration leakSweepInterval,
                               Duration redisWatchInterval, Duration rebuildSettle, Duration hangingTransactionAfter, Duration hangingTransactionCheckInterval,
                               Duration expiryInterval, int expiryBatch, int poolSize, int redisPoolSize, Duration orderStatusTtl,
                               TopicLayout topics, DeploymentMode mode, KafkaAccess repairKafka) {

    public static ReconcilerConfig from(Env env, InfraAddresses infra) {
        return new ReconcilerConfig(infra,
                new RelayBackoff(Outbox.relayGrace(env), env.millis("SECKILL_RELAY_MAX_BACKOFF_MS", Duration.ofMinutes(5))),
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
     * A second above the ingress's default outbox wait: an order reserved before the close is then recorded, or fenced
     * by its ingress, before the rebuild reads MySQL, so none is missing from the rebuilt ledger and its unit sold again.
     * An ingress given a longer SECKILL_OUTBOX_WAIT_MS wants a longer settle.
     */
    static Duration rebuildSettle(Env env) {
        return env.millis("SECKILL_REBUILD_SETTLE_MS", Duration.ofSeconds(4));
    }
}
