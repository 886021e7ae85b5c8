package io.seckill.localinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.InfraAddresses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The three servers answer for real, over their own protocols: SQL, a Redis round trip, a Kafka topic. */
class LocalInfrastructureIT {

    /** As the migration account: the watchdog's test makes a table of its own. */
    private final InfraAddresses addresses = LocalInfrastructure.get().ownerAddresses();

    @Test
    void mysqlAnswersWithTheSeckillDatabase() throws Exception {
        try (Connection connection = mysql(addresses.mysqlUrl(), addresses.mysqlUser(), addresses.mysqlPassword());
             ResultSet database = connection.createStatement().executeQuery("SELECT DATABASE()")) {
            assertThat(database.next()).isTrue();
            assertThat(database.getString(1)).isEqualTo("seckill");
        }
    }

    /**
     * The embedded server's watchdog: the shared servers' MariaDB when it is the embedded one, else (a
     * container, an address given) one of its own, so the test never skips.
     */
    @Test
    void aKilledMysqldIsStartedAgainOnItsData() throws Exception {
        Path sharedPidFile;
        try (Connection connection = mysql(addresses.mysqlUrl(), addresses.mysqlUser(), addresses.mysqlPassword())) {
            sharedPidFile = pidFile(connection);
        }
        if (Files.isReadable(sharedPidFile)) {
            killAndAwaitRestart(addresses.mysqlUrl(), addresses.mysqlUser(), addresses.mysqlPassword());
        } else {
            try (EmbeddedMariaDb own = EmbeddedMariaDb.start()) {
                DevelopmentAccounts.create(own);
                killAndAwaitRestart(
                        own.address(), DevelopmentAccounts.MIGRATION.user(), DevelopmentAccounts.MIGRATION.password());
            }
        }
    }

    private static void killAndAwaitRestart(String url, String user, String password) throws Exception {
        String kept = "kept-" + System.nanoTime();
        Path pidFile;
        try (Connection connection = mysql(url, user, password)) {
            connection
                    .createStatement()
                    .execute("CREATE TABLE IF NOT EXISTS watchdog_test (value VARCHAR(64) PRIMARY KEY)");
            connection.createStatement().execute("INSERT INTO watchdog_test VALUES ('" + kept + "')");
            pidFile = pidFile(connection);
        }
        ProcessHandle killed = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).orElseThrow();

        assertThat(killed.destroyForcibly()).isTrue();

        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            try (Connection connection = mysql(url, user, password);
                    ResultSet row = connection
                            .createStatement()
                            .executeQuery("SELECT value FROM watchdog_test WHERE value = '" + kept + "'")) {
                assertThat(row.next()).isTrue();
            }
        });
        assertThat(killed.isAlive()).isFalse();
    }

    private static Path pidFile(Connection connection) throws SQLException {
        try (ResultSet file = connection.createStatement().executeQuery("SELECT @@pid_file")) {
            file.next();
            return Path.of(file.getString(1));
        }
    }

    private static Connection mysql(String url, String user, String password) throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    @Test
    void redisAnswers() {
        try (RedisClient redis = RedisClient.create(addresses.redis().firstNodeUri())) {
            redis.set("local-infra-test", "ok");
            assertThat(redis.get("local-infra-test")).isEqualTo("ok");
        }
    }

    @Test
    void kafkaCreatesAndListsATopic() throws Exception {
        try (Admin admin = Admin.create(addresses.kafka().clientProperties())) {
            admin.createTopics(List.of(new NewTopic("local-infra-test", 1, (short) 1).configs(Map.of()))).all().get();
            assertThat(admin.listTopics().names().get()).contains("local-infra-test");
        }
    }

    /**
     * KIP-890's transaction protocol (transaction.version 2), which keeps late writes from leaving transactions
     * hanging.
     */
    @Test
    void kafkaRunsTheTransactionProtocolOfKip890() throws Exception {
        try (Admin admin = Admin.create(addresses.kafka().clientProperties())) {
            assertThat(admin.describeFeatures()
                            .featureMetadata()
                            .get()
                            .finalizedFeatures()
                            .get("transaction.version")
                            .maxVersionLevel())
                    .isEqualTo((short) 2);
        }
    }
}
