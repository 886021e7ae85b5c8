package io.seckill.localinfra;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.Database;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.KafkaClients;
import io.seckill.redisstate.RedisConnections;
import io.seckill.schemas.db.Tables;
import io.seckill.schemas.kafka.Topic;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The three servers answer for real: a migrated schema, a Redis round trip, the topic catalogue. */
class LocalInfrastructureTest {

    private final InfraAddresses addresses = LocalInfrastructure.get().addresses();

    @Test
    void mysqlIsMigrated() {
        try (Database db = Database.connectAndMigrate(addresses, "test", 2)) {
            assertThat(db.dsl().fetchCount(Tables.SKU)).isGreaterThanOrEqualTo(0);
            assertThat(db.dsl().dialect().family().name()).isIn("MARIADB", "MYSQL");
        }
    }

    @Test
    void redisAnswers() {
        try (RedisClient redis = RedisConnections.open(addresses.redisUrl(), 2)) {
            redis.set("local-infra-test", "ok");
            assertThat(redis.get("local-infra-test")).isEqualTo("ok");
        }
    }

    @Test
    void kafkaHoldsTheTopicCatalogue() throws Exception {
        KafkaClients.ensureTopics(addresses.kafkaBootstrap());
        KafkaClients.ensureTopics(addresses.kafkaBootstrap());
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, addresses.kafkaBootstrap());
        try (Admin admin = Admin.create(props)) {
            assertThat(admin.listTopics().names().get()).contains(Topic.ORDER_REQUESTS.topicName(), Topic.DEAD_LETTERS.topicName());
        }
    }
}
