package io.seckill.schemas.migration;

import io.seckill.config.MySqlAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;

/**
 * Brings a database to this release's schema as the migration account: Flyway applies the pending
 * migrations ({@value #LOCATION}), then each service's account is given exactly the statements its code runs, table by
 * table and, for updates, column by column ({@code db/grants/<account>.sql}). The one way the schema changes: services
 * only check it.
 *
 * <p>The privileges converge: before a table's grants, whatever the account held on it is revoked, so a release that
 * narrows an account (or drops a table from it) narrows a database set up by an earlier one. The migration account
 * cannot read another account's grants (that takes the {@code mysql} schema), so it revokes and grants each table back
 * to back, one connection, no statement between: a service's statement on that table in those milliseconds may be
 * refused, which is why a release is migrated before its services start (docs/operations.md).
 */
public final class SchemaMigration {

    public static final String LOCATION = "classpath:db/migration";
    private static final String GRANTS = "/db/grants/";
    private static final Pattern STATEMENT_END = Pattern.compile(";\\s*\\n");
    private static final Pattern GRANTED_TABLE = Pattern.compile("\\sON\\s+(\\w+)\\s+TO\\s");
    /** MariaDB's and MySQL's answer to a revoke on a table the account holds nothing on. */
    private static final int NO_SUCH_GRANT = 1147;

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
            Set<String> tables = tables(statement);
            for (MySqlAccount account : grantees) {
                String grantee = "'" + account.user() + "'@'%'";
                Map<String, List<String>> grantsByTable = grants(account).stream()
                        .collect(Collectors.groupingBy(SchemaMigration::table, TreeMap::new, Collectors.toList()));
                Set<String> touched = new TreeSet<>(tables);
                touched.addAll(grantsByTable.keySet());
                for (String table : touched) {
                    revokeAll(statement, table, grantee);
                    for (String grant : grantsByTable.getOrDefault(table, List.of())) {
                        statement.execute(grant.replace("{account}", grantee));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not grant " + grantees + " their privileges: " + e.getMessage(), e);
        }
    }

    private static Set<String> tables(Statement statement) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (ResultSet rows = statement.executeQuery(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        }
        return tables;
    }

    private static void revokeAll(Statement statement, String table, String grantee) throws SQLException {
        try {
            statement.execute("REVOKE ALL PRIVILEGES ON " + table + " FROM " + grantee);
        } catch (SQLException e) {
            if (e.getErrorCode() != NO_SUCH_GRANT) {
                throw e;
            }
        }
    }

    /** The table a grant statement is on. */
    static String table(String grant) {
        Matcher on = GRANTED_TABLE.matcher(grant);
        if (!on.find()) {
            throw new IllegalStateException("a grant names no table: " + grant);
        }
        return on.group(1);
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
