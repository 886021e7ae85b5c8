package io.seckill.mysqlstate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.config.InfraAddresses;
import io.seckill.schemas.migration.SchemaMigration;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.ValidateResult;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * A pooled MySQL/MariaDB connection, as the application account, to a database at this release's schema, with a jOOQ
 * context of the right dialect. The schema is changed only by {@code bin/seckill migrate} (SchemaMigration).
 */
public final class Database implements AutoCloseable {

    /** HikariCP's own default: long enough to outlast a database restart without failing callers at once. */
    private static final Duration DEFAULT_CONNECTION_WAIT = Duration.ofSeconds(30);

    private final HikariDataSource dataSource;
    private final DSLContext dsl;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.dsl = DSL.using(dataSource, dialectOf(dataSource), new Settings().withRenderSchema(false));
    }

    /**
     * Connects and checks that the database holds this release's schema: every migration of the release
     * applied, none unknown to it. The pool's figures go to {@code meters}.
     *
     * @throws IllegalStateException naming {@code bin/seckill migrate} when the schema is another release's
     */
    public static Database connect(InfraAddresses addresses, String poolName, int maxPoolSize, MeterRegistry meters) {
        return connect(addresses, poolName, maxPoolSize, DEFAULT_CONNECTION_WAIT, meters);
    }

    /**
     * The same, a caller waiting at most {@code connectionWait} for a free connection (then the pool's timeout
     * exception).
     */
    public static Database connect(
            InfraAddresses addresses, String poolName, int maxPoolSize, Duration connectionWait, MeterRegistry meters) {
        HikariConfig config = new HikariConfig();
        config.setConnectionTimeout(connectionWait.toMillis());
        config.setPoolName(poolName);
        config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(meters));
        config.setJdbcUrl(addresses.mysqlUrl());
        config.setUsername(addresses.mysqlUser());
        config.setPassword(addresses.mysqlPassword());
        config.setMaximumPoolSize(maxPoolSize);
        // All DATETIME columns hold UTC, MySQL's clock (the session's zone) as well as what Java writes: the
        // jOOQ converters hand over UTC wall times, which the driver must pass as they are, never shifting
        // them by the JVM's own zone. Batched inserts become one multi-row statement.
        config.addDataSourceProperty("connectionTimeZone", "UTC");
        config.addDataSourceProperty("forceConnectionTimeZoneToSession", "true");
        config.addDataSourceProperty("preserveInstants", "false");
        config.addDataSourceProperty("rewriteBatchedStatements", "true");
        config.addDataSourceProperty("cachePrepStmts", "true");
        // The outbox's and the sink's multi-row statements are longer than the driver's default limit of what it
        // caches (256 characters): uncached, every group commit parsed its statement again.
        config.addDataSourceProperty("prepStmtCacheSize", "250");
        config.addDataSourceProperty("prepStmtCacheSqlLimit", "16384");
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            ValidateResult schema = Flyway.configure()
                    .dataSource(dataSource)
                    .locations(SchemaMigration.LOCATION)
                    .load()
                    .validateWithResult();
            if (!schema.validationSuccessful) {
                throw new IllegalStateException(
                        "MySQL's schema is not this release's (" + schema.invalidMigrations.size()
                                + " migration(s) pending or unknown): run bin/seckill migrate with the migration"
                                + " account first");
            }
            return new Database(dataSource);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /**
     * jOOQ takes its dialect from the JDBC URL, which says "mysql" for MariaDB too, and then renders
     * MySQL-only syntax. The server's own version string tells them apart.
     */
    static SQLDialect dialectOf(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            String version = connection.getMetaData().getDatabaseProductVersion();
            return version.toLowerCase(Locale.ROOT).contains("mariadb") ? SQLDialect.MARIADB : SQLDialect.MYSQL;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach MySQL to detect its dialect", e);
        }
    }

    /** Throws unless the server answers a query: a readiness probe. */
    public void ping() {
        dsl.selectOne().fetch();
    }

    public DSLContext dsl() {
        return dsl;
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
