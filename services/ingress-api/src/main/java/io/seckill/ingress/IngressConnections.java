package io.seckill.ingress;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.mysqlstate.Database;
import io.seckill.redisstate.EvictionPolicy;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisRelease;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import redis.clients.jedis.UnifiedJedis;

/**
 * The ingress's connections to its stores and to Kafka, each checked by the host's readiness.
 *
 * @param database the buy path's pool
 * @param queries the buyers' other routes' pool: a bulkhead, failing fast when busy, so the buy path keeps its own
 * @param admin the admin listener's pool, as the account that may write stock: its few requests, which must get
 *     through an incident, have a small pool of their own
 */
record IngressConnections(
        Database database,
        Database queries,
        Database admin,
        LuaRunner lua,
        KafkaProducer<String, byte[]> producer,
        Admin kafkaAdmin) {

    /** Bounded: with Kafka unreachable, unsent orders are the relay's job, not a reason to hang. */
    private static final Duration KAFKA_CLOSE = Duration.ofSeconds(5);
    private static final int ADMIN_POOL_SIZE = 2;

    /** Opens every connection into {@code opened}, which closes them in reverse. */
    static IngressConnections open(IngressConfig config, ServiceHost host, OpenedResources opened) {
        Database database =
                opened.add(Database.connect(config.infra(), "ingress-api", config.mysqlPoolSize(), host.meters()));
        Database queries = opened.add(Database.connect(config.infra(), "ingress-api-queries", config.queryPool().size(),
                config.queryPool().connectionWait(), host.meters()));
        Database admin =
                opened.add(Database.connect(config.adminInfra(), "ingress-api-admin", ADMIN_POOL_SIZE, host.meters()));
        UnifiedJedis redis = opened.add(RedisConnections.open(config.infra().redis(), config.redisPoolSize()));
        EvictionPolicy.check(redis);
        RedisRelease.check(redis, config.mode());
        LuaRunner lua = opened.add(
                config.redisPipelines() > 0
                        ? LuaRunner.pipelined(redis, config.redisPipelines())
                        : new LuaRunner(redis));
        KafkaProducer<String, byte[]> producer =
                opened.add(new KafkaProducer<>(producerSettings(config)), p -> p.close(KAFKA_CLOSE));
        opened.add(new KafkaClientMetrics(producer)).bindTo(host.meters());
        Admin kafkaAdmin =
                opened.add(Admin.create(KafkaClients.admin(config.infra().kafka())), a -> a.close(KAFKA_CLOSE));
        host.readiness().reachable("redis", redis::ping);
        host.readiness().reachable("mysql", database::ping);
        BrokerCheck.addTo(host.readiness(), kafkaAdmin);
        return new IngressConnections(database, queries, admin, lua, producer, kafkaAdmin);
    }

    private static Properties producerSettings(IngressConfig config) {
        Properties settings = KafkaClients.producer(config.infra().kafka(), "ingress-api");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) config.kafkaMaxBlock().toMillis());
        return settings;
    }
}
