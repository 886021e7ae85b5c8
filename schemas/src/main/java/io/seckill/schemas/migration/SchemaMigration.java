package io.seckill.schemas.migration;

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
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;

/**
 * Brings a database to this release's schema as the migration account: Flyway applies the pending
 * migrations ({@value #LOCATION}), then the application account is granted its DML per table
 * ({@code db/application-grants.sql}). The one way the schema changes: services only check it.
 */
public final class SchemaMigration {

    public static final String LOCATION = "classpath:db/migration";
    private static final String GRANTS = "/db/application-grants.sql";
    /** Account names are spliced into GRANT statements (they cannot be bound): plain names only. */
    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9_]{1,32}");
    private static final Pattern STATEMENT_END = Pattern.compile(";\\s*\\n");

    private SchemaMigration() {
    }

    /**
     * @param applicationUser the services' account, granted its DML on every table (from any host); when it is the
     *                        migration account itself (a single-account development database), nothing is granted
     * @return the number of migrations applied now
     */
    public static int apply(String jdbcUrl, String migrationUser, String migrationPassword, String applicationUser) {
        int applied = Flyway.configure().dataSource(jdbcUrl, migrationUser, migrationPassword).locations(LOCATION).load().migrate().migrationsExecuted;
        if (!applicationUser.equals(migrationUser)) {
            grant(jdbcUrl, migrationUser, migrationPassword, applicationUser);
        }
        return applied;
    }

    private static void grant(String jdbcUrl, String migrationUser, String migrationPassword, String applicationUser) {
        if (!ACCOUNT.matcher(applicationUser).matches()) {
            throw new IllegalArgumentException("the application account's name must be 1-32 of A-Z a-z 0-9 _, was '" + applicationUser + "'");
        }
        try (Connection connection = DriverManager.getConnection(jdbcUrl, migrationUser, migrationPassword);
             Statement statement = connection.createStatement()) {
            for (String grant : grants()) {
                statement.execute(grant.replace("{application}", "'" + applicationUser + "'@'%'"));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not grant the application account " + applicationUser + " its privileges: " + e.getMessage(), e);
        }
    }

    /** The grant statements, comments dropped. */
    static List<String> grants() {
        try (InputStream in = SchemaMigration.class.getResourceAsStream(GRANTS)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + GRANTS);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(line -> !line.startsWith("--"))
                    .collect(Collectors.joining("\n", "", "\n"));
            return Arrays.stream(STATEMENT_END.split(text, -1)).map(String::strip).filter(statement -> !statement.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
