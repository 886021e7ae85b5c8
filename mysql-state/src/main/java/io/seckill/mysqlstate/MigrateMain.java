package io.seckill.mysqlstate;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.MigrationAccount;
import io.seckill.schemas.migration.SchemaMigration;

/**
 * {@code bin/seckill migrate}: brings MySQL to this release's schema as the migration account
 * ({@code SECKILL_MIGRATION_MYSQL_USER}/{@code _PASSWORD}) and grants the application account
 * ({@code SECKILL_MYSQL_USER}) its DML, then exits: a step of its own before the services start (compose's
 * one-shot {@code migrate} service, a Kubernetes Job). Exit 0 when done, 70 with one line when it could not.
 */
public final class MigrateMain {

    private MigrateMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        try {
            // Only MySQL's address and the application account's name: its password, and Kafka, are the services' business.
            String mysqlUrl = InfraAddresses.mysqlUrl(env);
            String applicationUser = InfraAddresses.mysqlUser(env);
            MigrationAccount migration = MigrationAccount.from(env)
                    .orElseThrow(() -> new IllegalArgumentException(MigrationAccount.USER + " is required: the account that may change the schema"));
            int applied = SchemaMigration.apply(mysqlUrl, migration.user(), migration.password(), applicationUser);
            System.out.println("migrated " + mysqlUrl + " as " + migration.user() + ": " + applied + " migration(s) applied; "
                    + applicationUser + " granted its DML");
        } catch (RuntimeException e) {
            System.err.println("migrate failed: " + e.getMessage());
            System.exit(70);
        }
    }
}
