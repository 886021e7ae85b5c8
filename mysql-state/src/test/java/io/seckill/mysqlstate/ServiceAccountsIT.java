package io.seckill.mysqlstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.InfraAddresses;
import io.seckill.localinfra.LocalInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The services' account has the DML they need and nothing else: it cannot change the schema, rewrite the
 * migration history, delete stock or orders, or touch an audit record once written.
 */
class ApplicationAccountIT {

    private static final InfraAddresses APPLICATION = LocalInfrastructure.get().addresses();

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(APPLICATION.mysqlUrl(), APPLICATION.mysqlUser(), APPLICATION.mysqlPassword());
    }

    @Test
    void theApplicationAccountCannotChangeTheSchemaOrWriteWhatItHasNoBusinessWith() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String refused : new String[] {
                    "DROP TABLE orders",
                    "CREATE TABLE intruder (id INT)",
                    "ALTER TABLE sku ADD COLUMN discount INT",
                    "DELETE FROM sku",
                    "DELETE FROM orders",
                    "UPDATE admin_audit SET admin = 'someone-else'",
                    "DELETE FROM admin_audit",
                    "UPDATE flyway_schema_history SET success = 0",
                    "INSERT INTO dead_letters (id) VALUES (1) ON DUPLICATE KEY UPDATE id = id",
                    "CREATE TRIGGER hidden BEFORE INSERT ON orders FOR EACH ROW SET @x = 1"}) {
                assertThatThrownBy(() -> statement.execute(refused)).as(refused)
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage()).containsIgnoringCase("denied"));
            }
        }
    }

    /** A migration recorded otherwise than this release has it (here: another checksum) is another release's schema. */
    @Test
    void aServiceRefusesASchemaThatIsNotItsReleases() {
        try (Database owner = Database.connect(LocalInfrastructure.get().ownerAddresses(), "schema-owner", 1, new SimpleMeterRegistry())) {
            owner.dsl().execute("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '1'");
            try {
                assertThatThrownBy(() -> Database.connect(APPLICATION, "behind", 1, new SimpleMeterRegistry()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("bin/seckill migrate");
            } finally {
                owner.dsl().execute("UPDATE flyway_schema_history SET checksum = checksum - 1 WHERE version = '1'");
            }
        }
    }

    @Test
    void itReadsAndWritesWhatTheServicesDo() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.execute("SELECT COUNT(*) FROM outbox")).isTrue();
            assertThat(statement.executeUpdate("UPDATE outbox SET relay_attempts = relay_attempts WHERE id = 'no-such-order'")).isZero();
            assertThat(statement.executeUpdate("DELETE FROM outbox WHERE id = 'no-such-order'")).isZero();
            assertThat(statement.execute("SELECT version FROM flyway_schema_history")).isTrue();
        }
    }
}
