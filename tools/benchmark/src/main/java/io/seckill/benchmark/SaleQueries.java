package io.seckill.benchmark;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The read-only SQL the whole-sale checks run against each design's tables, named by the caller: the
 * orders committed, the units sold per SKU and held per buyer. Timestamps are read as UTC, as every
 * design writes them.
 */
record SaleQueries(DataSource database) {

    private static final int CHUNK = 1_000;

    /**
     * {@code sql} selects (order id, commit time) for the ids bound to its one {@code IN ({0})} (jOOQ's plain SQL
     * template).
     */
    Map<String, Instant> committed(String sql, Collection<String> orderIds) throws SQLException {
        Map<String, Instant> committed = new HashMap<>();
        List<String> ids = List.copyOf(orderIds);
        for (int from = 0; from < ids.size(); from += CHUNK) {
            try (ResultSet rows = select(sql, ids.subList(from, Math.min(ids.size(), from + CHUNK)))) {
                while (rows.next()) {
                    // As stored, no zone applied: the driver's Timestamp would apply the JVM's.
                    committed.put(rows.getString(1), rows.getObject(2, LocalDateTime.class).toInstant(ZoneOffset.UTC));
                }
            }
        }
        return committed;
    }

    /** {@code sql} selects (key, sum) for the SKU ids bound to its one {@code IN ({0})}. */
    <K> Map<K, Long> sums(String sql, List<Long> skus, Class<K> keyType) throws SQLException {
        Map<K, Long> sums = new HashMap<>();
        try (ResultSet rows = select(sql, skus)) {
            while (rows.next()) {
                sums.put(rows.getObject(1, keyType), rows.getLong(2));
            }
        }
        return sums;
    }

    /**
     * The rows of {@code sql} with {@code values} bound, one bind variable each, to its {@code {0}}; closing them frees
     * the connection.
     */
    private ResultSet select(String sql, List<?> values) {
        return DSL.using(database, SQLDialect.MARIADB)
                .resultQuery(sql, DSL.list(values.stream().map(DSL::val).toList()))
                .fetchResultSet();
    }

    void execute(String sql, Object... values) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        }
    }

    long single(String sql, Object... values) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }
}
