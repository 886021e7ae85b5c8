package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In production the MySQL passwords are secrets like any other: set, long enough, never a published development value.
 */
class MySqlAccountsTest {

    private static final String PASSWORD = "a-password-of-our-own";

    @Test
    void productionRefusesAMissingShortOrPublishedApplicationPasswordByItsName() {
        assertThatThrownBy(() -> InfraAddresses.forMySqlUser(new Env(Map.of()), KafkaPrincipal.DB_SINK))
                .hasMessageContaining(InfraAddresses.MYSQL_PASSWORD);
        assertThatThrownBy(() -> InfraAddresses.forMySqlUser(
                        new Env(Map.of(InfraAddresses.MYSQL_PASSWORD, "pw-9f2c")), KafkaPrincipal.DB_SINK))
                .hasMessageContaining(InfraAddresses.MYSQL_PASSWORD)
                .hasMessageNotContaining("pw-9f2c");
        assertThatThrownBy(() -> InfraAddresses.forMySqlUser(
                        new Env(Map.of(InfraAddresses.MYSQL_PASSWORD, Secrets.DEVELOPMENT_APPLICATION_PASSWORD)),
                        KafkaPrincipal.DB_SINK))
                .hasMessageContaining(InfraAddresses.MYSQL_PASSWORD)
                .hasMessageNotContaining(Secrets.DEVELOPMENT_APPLICATION_PASSWORD);
        assertThat(InfraAddresses.forMySqlUser(
                                new Env(Map.of(
                                        InfraAddresses.MYSQL_PASSWORD,
                                        PASSWORD,
                                        KafkaSecurity.PASSWORD,
                                        PASSWORD,
                                        InfraAddresses.MYSQL_URL,
                                        "jdbc:mysql://mysql.internal:3306/seckill?sslMode=VERIFY_IDENTITY")),
                                KafkaPrincipal.DB_SINK)
                        .mysqlUser())
                .isEqualTo("seckill_sink");
    }

    @Test
    void eachServiceConnectsAsItsOwnAccountAndTheIngressAdminListenerAsAnotherWithAPasswordOfItsOwn() {
        Env production = new Env(Map.of(InfraAddresses.MYSQL_PASSWORD, PASSWORD, KafkaSecurity.PASSWORD, PASSWORD));
        assertThat(InfraAddresses.from(production, KafkaPrincipal.INGRESS).mysqlUser())
                .isEqualTo(MySqlAccount.INGRESS.user());
        assertThat(InfraAddresses.from(production, KafkaPrincipal.RECONCILER).mysqlUser())
                .isEqualTo(MySqlAccount.RECONCILER.user());
        InfraAddresses ingress = InfraAddresses.from(production, KafkaPrincipal.INGRESS);
        assertThatThrownBy(() -> ingress.forIngressAdmin(production))
                .hasMessageContaining(InfraAddresses.ADMIN_MYSQL_PASSWORD);
        assertThatThrownBy(() ->
                        ingress.forIngressAdmin(production.withDefault(InfraAddresses.ADMIN_MYSQL_PASSWORD, PASSWORD)))
                .hasMessageContaining(InfraAddresses.ADMIN_MYSQL_PASSWORD)
                .hasMessageNotContaining(PASSWORD);
        InfraAddresses admin = ingress.forIngressAdmin(
                production.withDefault(InfraAddresses.ADMIN_MYSQL_PASSWORD, "the-admins-own-password"));
        assertThat(admin.mysqlUser()).isEqualTo(MySqlAccount.INGRESS_ADMIN.user());
        assertThat(admin.mysqlPassword()).isEqualTo("the-admins-own-password");

        Env development = new Env(Map.of(
                DeploymentMode.SETTING,
                "development",
                InfraAddresses.MYSQL_PASSWORD,
                Secrets.DEVELOPMENT_APPLICATION_PASSWORD));
        assertThat(InfraAddresses.from(development, KafkaPrincipal.INGRESS)
                        .forIngressAdmin(development)
                        .mysqlPassword())
                .as("development: every account on the services' password")
                .isEqualTo(Secrets.DEVELOPMENT_APPLICATION_PASSWORD);
    }

    @Test
    void productionRefusesThePublishedMigrationPasswordAndDevelopmentTakesIt() {
        Map<String, String> published = Map.of(
                MigrationAccount.USER,
                "seckill_migrator",
                MigrationAccount.PASSWORD,
                Secrets.DEVELOPMENT_MIGRATION_PASSWORD);
        assertThatThrownBy(() -> MigrationAccount.from(new Env(published)))
                .hasMessageContaining(MigrationAccount.PASSWORD);

        Env development = new Env(Map.of(
                DeploymentMode.SETTING,
                "development",
                MigrationAccount.USER,
                "seckill_migrator",
                MigrationAccount.PASSWORD,
                Secrets.DEVELOPMENT_MIGRATION_PASSWORD,
                InfraAddresses.MYSQL_PASSWORD,
                Secrets.DEVELOPMENT_APPLICATION_PASSWORD));
        assertThat(MigrationAccount.from(development))
                .contains(new MigrationAccount("seckill_migrator", Secrets.DEVELOPMENT_MIGRATION_PASSWORD));
        assertThat(InfraAddresses.forMySqlUser(development, KafkaPrincipal.DB_SINK)
                        .mysqlPassword())
                .isEqualTo(Secrets.DEVELOPMENT_APPLICATION_PASSWORD);
        assertThat(MigrationAccount.from(development).orElseThrow().toString())
                .doesNotContain(Secrets.DEVELOPMENT_MIGRATION_PASSWORD);
    }
}
