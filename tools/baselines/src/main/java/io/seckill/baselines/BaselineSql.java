package io.seckill.baselines;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A baseline's tables ({@code <prefix>_sku}, {@code <prefix>_orders}) and the statements both baselines
 * run per order on them: the conditional charge of the stock, the check for the buyer's order, the
 * order's insert. An order's {@code created_at} is MySQL's clock in UTC, whatever the session's time zone,
 * as seckill's times are.
 */
public record BaselineSql(String prefix) {

    public String skus() {
        return prefix + "_sku";
    }

    public String orders() {
        return prefix + "_orders";
    }

    /**
     * The tables, created unless they exist; the only indexes a baseline needs are the primary and the unique (sku,
     * buyer) key.
     */
    String[] schema() {
        return new String[] {
            "CREATE TABLE IF NOT EXISTS " + skus()
                    + " (id BIGINT NOT NULL PRIMARY KEY, stock INT NOT NULL, CHECK (stock >= 0))",
            "CREATE TABLE IF NOT EXISTS " + orders()
                    + " (order_id CHAR(36) NOT NULL PRIMARY KEY, sku_id BIGINT NOT NULL,"
                    + " user_id VARCHAR(64) NOT NULL, quantity INT NOT NULL, created_at DATETIME(3) NOT NULL,"
                    + " UNIQUE KEY uq_" + prefix + "_buyer (sku_id, user_id))"
        };
    }

    /** {@code UPDATE ... SET stock = stock - q WHERE id = ? AND stock >= q}. @return whether the stock covered it */
    boolean charge(Connection connection, long skuId, int quantity) throws SQLException {
        try (PreparedStatement charge = connection.prepareStatement(
                "UPDATE " + skus() + " SET stock = stock - ? WHERE id = ? AND stock >= ?")) {
            charge.setInt(1, quantity);
            charge.setLong(2, skuId);
            charge.setInt(3, quantity);
            return charge.executeUpdate() == 1;
        }
    }

    boolean hasOrder(Connection connection, long skuId, String userId) throws SQLException {
        try (PreparedStatement exists =
                connection.prepareStatement("SELECT 1 FROM " + orders() + " WHERE sku_id = ? AND user_id = ?")) {
            exists.setLong(1, skuId);
            exists.setString(2, userId);
            try (ResultSet found = exists.executeQuery()) {
                return found.next();
            }
        }
    }

    /** @throws java.sql.SQLIntegrityConstraintViolationException when the buyer has an order of the SKU already */
    void insertOrder(Connection connection, String orderId, long skuId, String userId, int quantity)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + orders()
                + " (order_id, sku_id, user_id, quantity, created_at) VALUES (?, ?, ?, ?, UTC_TIMESTAMP(3))")) {
            insert.setString(1, orderId);
            insert.setLong(2, skuId);
            insert.setString(3, userId);
            insert.setInt(4, quantity);
            insert.executeUpdate();
        }
    }
}
