package io.seckill.ingress;

import io.seckill.runtime.Env;
import io.seckill.runtime.InfraAddresses;
import java.time.Duration;

/**
 * SECKILL_HTTP_PORT (8080); SECKILL_RELAY_GRACE_MS (10000): how long a new outbox row waits before the
 * relay may re-send it; SECKILL_INGRESS_POOL_SIZE (16) MySQL connections; SECKILL_REDIS_POOL_SIZE (64);
 * SECKILL_KAFKA_MAX_BLOCK_MS (1000): the longest a buy waits for Kafka before leaving the order to the relay.
 */
public record IngressConfig(InfraAddresses infra, int httpPort, Duration relayGrace, int mysqlPoolSize,
                            int redisPoolSize, Duration kafkaMaxBlock) {

    public static IngressConfig from(Env env, InfraAddresses infra) {
        return new IngressConfig(infra,
                env.integer("SECKILL_HTTP_PORT", 8080),
                env.millis("SECKILL_RELAY_GRACE_MS", Duration.ofSeconds(10)),
                env.integer("SECKILL_INGRESS_POOL_SIZE", 16),
                env.integer("SECKILL_REDIS_POOL_SIZE", 64),
                env.millis("SECKILL_KAFKA_MAX_BLOCK_MS", Duration.ofSeconds(1)));
    }
}
