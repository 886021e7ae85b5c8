package io.seckill.mysqlstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.MySqlAccount;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.migration.SchemaMigration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each service's account runs what its code runs and is refused what another service does: the buyers' ingress
 * cannot write stock or record a decision, the sink cannot end an order or file a dead letter, the reconciler cannot
 * define a sale, the admin listener cannot touch orders; none can change the schema, rewrite its history, delete
 * stock or orders, or touch an audit record once written. Updates are granted by column: no account but the sink's
 * (which inserts them) writes what an order is (its SKU, buyer, quantity), nor a sale's terms but the admin's.
 */
class ServiceAccountsIT {

    private static final InfraAddresses INGRESS = LocalInfrastructure.get().addressesFor(KafkaPrincipal.INGRESS);
    private static final InfraAddresses ADMIN =
            INGRESS.forIngressAdmin(new Env(Map.of(DeploymentMode.SETTING, "development")));
    private static final InfraAddresses SINK = LocalInfrastructure.get().addressesFor(KafkaPrincipal.DB_SINK);
    private static final InfraAddresses RECONCILER = LocalInfrastructure.get().addressesFor(KafkaPrincipal.RECONCILER);
    private static final InfraAddresses OWNER = LocalInfrastructure.get().ownerAddresses();

    private static Connection connect(InfraAddresses account) throws SQLException {
        return DriverManager.getConnection(account.mysqlUrl(), account.mysqlUser(), account.mysqlPassword());
    }

    @Test
    void theBuyersIngressCannotWriteStockOrPurchasesOrRecordADecision() throws Exception {
        refused(
                INGRESS,
                "UPDATE sku SET stock = stock + 1000 WHERE id = 1",
                "INSERT INTO sku (id, name, stock, per_user_limit) VALUES (999999999, 'forged', 1, 1)",
                "UPDATE user_purchases SET quantity = 0",
                "INSERT INTO orders (order_id, sku_id, user_id, quantity, status) VALUES ('forged', 1, 'someone', 1,"
                        + " 'CONFIRMED')",
                "UPDATE outbox SET completed_at = NOW(3)",
                "UPDATE stock_adjustments SET in_redis = 1",
                "INSERT INTO admin_audit (admin) VALUES ('someone')",
                "UPDATE order_events SET units_restored_at = NOW(3)",
                "UPDATE orders SET quantity = 100000 WHERE order_id = 'no-such-order'",
                "UPDATE orders SET sku_id = 1 WHERE order_id = 'no-such-order'",
                "UPDATE orders SET user_id = 'someone' WHERE order_id = 'no-such-order'",
                "UPDATE orders SET pay_by = NOW(3) WHERE order_id = 'no-such-order'");
        allowed(INGRESS,
                "UPDATE orders SET status = status, paid_at = paid_at, payment_reference = payment_reference,"
                        + " cancelled_at = cancelled_at WHERE order_id = 'no-such-order'",
                "SELECT stock FROM sku WHERE id = 1",
                "SELECT COUNT(*) FROM outbox");
    }

    @Test
    void theAdminListenerDefinesSalesButEndsNoOrder() throws Exception {
        refused(ADMIN,
                "UPDATE orders SET status = 'CANCELLED'",
                "INSERT INTO outbox (id) VALUES ('forged')",
                "UPDATE user_purchases SET quantity = 0",
                "INSERT INTO order_events (id) VALUES ('forged')",
                "UPDATE admin_audit SET admin = 'someone-else'",
                "UPDATE stock_adjustments SET delta = 100000 WHERE adjustment_id = 'none'");
        allowed(ADMIN,
                "UPDATE sku SET stock = stock WHERE id = -1",
                "UPDATE stock_adjustments SET in_redis = in_redis WHERE adjustment_id = 'none'");
    }

    @Test
    void theSinkRecordsDecisionsButEndsNoOrderAndFilesNoDeadLetter() throws Exception {
        refused(SINK,
                "UPDATE orders SET status = 'CANCELLED'",
                "INSERT INTO order_events (id) VALUES ('forged')",
                "INSERT INTO dead_letters (id) VALUES (1)",
                "INSERT INTO outbox (id) VALUES ('forged')",
                "UPDATE stock_adjustments SET in_redis = 1",
                "UPDATE sku SET per_user_limit = 100 WHERE id = -1",
                "UPDATE sku SET initial_stock = 0 WHERE id = -1",
                "UPDATE outbox SET quantity = 100000 WHERE id = 'no-such-order'");
        allowed(SINK,
                "UPDATE sku SET stock = stock WHERE id = -1",
                "UPDATE user_purchases SET quantity = quantity WHERE sku_id = -1",
                "UPDATE outbox SET completed_at = completed_at WHERE id = 'no-such-order'");
    }

    @Test
    void theReconcilerDefinesNoSaleAndWritesNoAudit() throws Exception {
        refused(RECONCILER,
                "INSERT INTO sku (id, name, stock, per_user_limit) VALUES (999999999, 'forged', 1, 1)",
                "INSERT INTO stock_adjustments (adjustment_id) VALUES ('forged')",
                "INSERT INTO user_purchases (sku_id, user_id, quantity) VALUES (1, 'someone', 1)",
                "INSERT INTO admin_audit (admin) VALUES ('someone')",
                "UPDATE sku SET per_user_limit = 100 WHERE id = -1",
                "UPDATE orders SET quantity = 100000 WHERE order_id = 'no-such-order'",
                "UPDATE order_events SET quantity = 100000 WHERE id = 'no-such-order'",
                "UPDATE outbox SET payload = '' WHERE id = 'no-such-order'",
                "UPDATE stock_adjustments SET delta = 100000 WHERE adjustment_id = 'none'");
        allowed(RECONCILER,
                "UPDATE sku SET stock = stock, version = version, updated_at = updated_at WHERE id = -1",
                "UPDATE orders SET status = status, expired_at = expired_at WHERE order_id = 'no-such-order'",
                "DELETE FROM outbox WHERE id = 'no-such-order'",
                "DELETE FROM order_events WHERE id = 'no-such-order'");
    }

    @Test
    void noServiceCanChangeTheSchemaOrItsHistoryOrDeleteStockOrdersOrAudits() throws Exception {
        for (InfraAddresses account : new InfraAddresses[] {INGRESS, ADMIN, SINK, RECONCILER}) {
            refused(account,
                    "DROP TABLE orders",
                    "CREATE TABLE intruder (id INT)",
                    "ALTER TABLE sku ADD COLUMN discount INT",
                    "DELETE FROM sku",
                    "DELETE FROM orders",
                    "DELETE FROM admin_audit",
                    "UPDATE flyway_schema_history SET success = 0",
                    "CREATE TRIGGER hidden BEFORE INSERT ON orders FOR EACH ROW SET @x = 1");
            allowed(account, "SELECT version FROM flyway_schema_history");
        }
    }

    /** A give-back of more than the buyer holds fails, whichever account runs it: no buyer is ever owed a purchase. */
    @Test
    void noBuyerHoldsLessThanNothing() throws Exception {
        allowed(OWNER, "INSERT INTO user_purchases (sku_id, user_id, quantity) VALUES (-7, 'holder', 1)");
        try (Connection connection = connect(RECONCILER); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute(
                    "UPDATE user_purchases SET quantity = quantity - 2 WHERE sku_id = -7 AND user_id = 'holder'"))
                    .isInstanceOfSatisfying(
                            SQLException.class,
                            e -> assertThat(e.getMessage()).contains("ck_user_purchases_not_negative"));
        } finally {
            allowed(OWNER, "DELETE FROM user_purchases WHERE sku_id = -7");
        }
    }

    /**
     * A database an earlier release set up keeps no privilege this one dropped: the migration takes back what an
     * account held beyond its grants (here: every column of orders, and a table it was never given), not only adds.
     */
    @Test
    void theMigrationTakesBackPrivilegesAnAccountNoLongerHas() throws Exception {
        String ingress = "'" + INGRESS.mysqlUser() + "'@'%'";
        allowed(OWNER,
                "GRANT UPDATE ON orders TO " + ingress,
                "GRANT SELECT, DELETE ON dead_letters TO " + ingress);
        allowed(INGRESS, "UPDATE orders SET quantity = quantity WHERE order_id = 'no-such-order'");

        SchemaMigration.apply(
                OWNER.mysqlUrl(), OWNER.mysqlUser(), OWNER.mysqlPassword(), EnumSet.of(MySqlAccount.INGRESS));

        refused(INGRESS,
                "UPDATE orders SET quantity = quantity WHERE order_id = 'no-such-order'",
                "SELECT COUNT(*) FROM dead_letters",
                "DELETE FROM dead_letters WHERE id = -1");
        allowed(INGRESS, "UPDATE orders SET status = status WHERE order_id = 'no-such-order'");
    }

    /** A migration recorded otherwise than this release has it (here: another checksum) is another release's schema. */
    @Test
    void aServiceRefusesASchemaThatIsNotItsReleases() {
        try (Database owner = Database.connect(
                OWNER, "schema-owner", 1, new SimpleMeterRegistry())) {
            owner.dsl().execute("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '1'");
            try {
                assertThatThrownBy(() -> Database.connect(SINK, "behind", 1, new SimpleMeterRegistry()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("bin/seckill migrate");
            } finally {
                owner.dsl().execute("UPDATE flyway_schema_history SET checksum = checksum - 1 WHERE version = '1'");
            }
        }
    }

    private static void refused(InfraAddresses account, String... statements) throws SQLException {
        try (Connection connection = connect(account); Statement statement = connection.createStatement()) {
            for (String refused : statements) {
                assertThatThrownBy(() -> statement.execute(refused))
                        .as(account.mysqlUser() + ": " + refused)
                        .isInstanceOfSatisfying(
                                SQLException.class,
                                e -> assertThat(e.getMessage()).containsIgnoringCase("denied"));
            }
        }
    }

    private static void allowed(InfraAddresses account, String... statements) throws SQLException {
        try (Connection connection = connect(account); Statement statement = connection.createStatement()) {
            for (String allowed : statements) {
                statement.execute(allowed);
            }
        }
    }
}
