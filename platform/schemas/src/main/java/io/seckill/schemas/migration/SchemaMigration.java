package io.seckill.schemas.migration;

import io.seckill.config.MySqlAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;

/**
 * Brings a database to this release's schema as the migration account: Flyway applies the pending
 * migrations ({@value #LOCATION}), then each service's account is granted the statements its code runs, table by
 * table ({@code db/grants/<account>.sql}). The one way the schema changes: services only check it.
 */
public final class SchemaMigration {

    public static final String LOCATION = "classpath:db/migration";
    private static final String GRANTS = "/db/grants/";
    private static final Pattern STATEMENT_END = Pattern.compile(";\\s*\\n");

    private SchemaMigration() {
    }

    /**
     * @param grantees the accounts granted their statements (from any host; an account must exist already, made by the
     *                 server's administrator); none for a single-account development database, whose services connect
     *                 as the migration account itself
     * @return the number of migrations applied now
     */
    public static int apply(
            String jdbcUrl, String migrationUser, String migrationPassword, Set<MySqlAccount> grantees) {
        int applied = Flyway.configure()
                .dataSource(jdbcUrl, migrationUser, migrationPassword)
                .locations(LOCATION)
                .load()
                .migrate()
                .migrationsExecuted;
        if (!grantees.isEmpty()) {
            grant(jdbcUrl, migrationUser, migrationPassword, grantees);
        }
        return applied;
    }

    private static void grant(
            String jdbcUrl, String migrationUser, String migrationPassword, Set<MySqlAccount> grantees) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, migrationUser, migrationPassword);
             Statement statement = connection.createStatement()) {
            for (MySqlAccount account : grantees) {
                for (String grant : grants(account)) {
                    statement.execute(grant.replace("{account}", "'" + account.user() + "'@'%'"));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not grant " + grantees + " their privileges: " + e.getMessage(), e);
        }
    }

    /** The account's grant statements, comments dropped. */
    static List<String> grants(MySqlAccount account) {
        String resource = GRANTS + resourceName(account) + ".sql";
        try (InputStream in = SchemaMigration.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> !line.startsWith("--"))
                    .collect(Collectors.joining("\n", "", "\n"));
            return Arrays.stream(STATEMENT_END.split(text, -1))
                    .map(String::strip)
                    .filter(statement -> !statement.isEmpty())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String resourceName(MySqlAccount account) {
        return switch (account) {
            case INGRESS -> "ingress";
            case INGRESS_ADMIN -> "ingress-admin";
            case DB_SINK -> "db-sink";
            case RECONCILER -> "reconciler";
        };
    }
}
