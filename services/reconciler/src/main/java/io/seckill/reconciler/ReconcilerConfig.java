package io.seckill.reconciler;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaSecurity;
import io.seckill.reconciler.lifecycle.LifecycleSettings;
import io.seckill.reconciler.relay.RelaySettings;
import io.seckill.reconciler.repair.RepairSettings;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.runtime.TopicLayout;
import java.time.Duration;

/**
 * The reconciler's settings, read once at start: each area's jobs' own ({@link RelaySettings}, {@link RepairSettings},
 * {@link LifecycleSettings}), its pools, and the Kafka login of the hanging-transaction repair
 * ({@link KafkaSecurity#repairFrom}), which is not the reconciler's own. What each setting means and its default are in
 * docs/configuration.md.
 */
public record ReconcilerConfig(InfraAddresses infra, RelaySettings relay, RepairSettings repair,
                               LifecycleSettings lifecycle, Duration figuresInterval, int poolSize, int redisPoolSize,
                               Duration orderStatusTtl, TopicLayout topics, DeploymentMode mode,
                               KafkaAccess repairKafka) {

    public static ReconcilerConfig from(Env env, InfraAddresses infra) {
        return new ReconcilerConfig(
                infra,
                RelaySettings.from(env),
                RepairSettings.from(env),
                LifecycleSettings.from(env),
                env.millis("SECKILL_FIGURES_INTERVAL_MS", Duration.ofSeconds(5)),
                env.integer("SECKILL_RECONCILER_POOL_SIZE", 8),
                env.integer("SECKILL_REDIS_POOL_SIZE", 16),
                OrderStatusStore.ttl(env),
                TopicLayout.from(env),
                DeploymentMode.of(env),
                new KafkaAccess(infra.kafkaBootstrap(), KafkaSecurity.repairFrom(env)));
    }
}
