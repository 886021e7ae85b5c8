package io.seckill.localinfra;

import io.seckill.config.MigrationAccount;
import io.seckill.config.MySqlAccount;
import io.seckill.config.Secrets;
import java.util.ArrayList;
import java.util.List;

/**
 * The accounts of a development MySQL started here, made by the server's administrator: the migration account
 * (everything on the {@code seckill} database, and the right to grant it) and each service's account
 * ({@link MySqlAccount}: nothing until the migration grants it its statements), all services' on one password. The
 * passwords are published development values; the servers listen on this host only.
 */
final class DevelopmentAccounts {

    static final MigrationAccount MIGRATION =
            new MigrationAccount("seckill_migrator", Secrets.DEVELOPMENT_MIGRATION_PASSWORD);
    static final String SERVICES_PASSWORD = Secrets.DEVELOPMENT_APPLICATION_PASSWORD;

    private DevelopmentAccounts() {
    }

    /** Creates the accounts, or sets their passwords again where they exist (a kept data directory). */
    static void create(MySqlServer server) {
        List<String> statements = new ArrayList<>(List.of(
                // MariaDB's install makes an anonymous ''@'localhost', which would match before any 'name'@'%' from
                // this host.
                "DROP USER IF EXISTS ''@'localhost';",
                "CREATE USER IF NOT EXISTS '" + MIGRATION.user() + "'@'%' IDENTIFIED BY '" + MIGRATION.password()
                        + "';",
                "ALTER USER '" + MIGRATION.user() + "'@'%' IDENTIFIED BY '" + MIGRATION.password() + "';",
                "GRANT ALL PRIVILEGES ON seckill.* TO '" + MIGRATION.user() + "'@'%' WITH GRANT OPTION;",
                // On a developer's server only: lets the developer (and a test staging a lock wait) see every session's
                // transactions.
                "GRANT PROCESS ON *.* TO '" + MIGRATION.user() + "'@'%';"));
        for (MySqlAccount account : MySqlAccount.values()) {
            statements.add("CREATE USER IF NOT EXISTS '" + account.user() + "'@'%' IDENTIFIED BY '" + SERVICES_PASSWORD
                    + "';");
            statements.add("ALTER USER '" + account.user() + "'@'%' IDENTIFIED BY '" + SERVICES_PASSWORD + "';");
        }
        server.administer(statements);
    }
}
