package io.seckill.mysqlstate;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.MigrationAccount;
import io.seckill.config.MySqlAccount;
import io.seckill.schemas.migration.SchemaMigration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.stream.Collectors;

/**
 * {@code bin/seckill migrate}: brings MySQL to this release's schema as the migration account
 * ({@code SECKILL_MIGRATION_MYSQL_USER}/{@code _PASSWORD}) and grants each service's account ({@link MySqlAccount})
 * the statements its code runs, then exits: a step of its own before the services start (compose's
 * one-shot {@code migrate} service, a Kubernetes Job). Exit 0 when done, 70 with one line when it could not.
 */
public final class MigrateMain {

    private MigrateMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        try {
            // Only MySQL's address: the services' passwords, and Kafka, are the services' business.
            String mysqlUrl = InfraAddresses.mysqlUrl(env);
            MigrationAccount migration = MigrationAccount.from(env)
                    .orElseThrow(() -> new IllegalArgumentException(
                            MigrationAccount.USER + " is required: the account that may change the schema"));
            int applied = SchemaMigration.apply(
                    mysqlUrl, migration.user(), migration.password(), EnumSet.allOf(MySqlAccount.class));
            System.out.println("migrated " + mysqlUrl + " as " + migration.user() + ": " + applied
                    + " migration(s) applied; "
                    + Arrays.stream(MySqlAccount.values())
                            .map(MySqlAccount::user)
                            .collect(Collectors.joining(", ")) + " granted their statements");
        } catch (RuntimeException e) {
            System.err.println("migrate failed: " + e.getMessage());
            System.exit(70);
        }
    }
}
