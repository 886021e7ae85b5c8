package io.seckill.benchmark.baselines;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The two statements both baselines run per order, each on its own tables ({@code <prefix>_sku},
 * {@code <prefix>_orders}): the conditional charge of the stock and the order's insert.
 */
record BaselineSql(String prefix) {

    /** {@code UPDATE ... SET stock = stock - q WHERE id = ? AND stock >= q}. @return whether the stock covered it */
    boolean charge(Connection connection, long skuId, int quantity) throws SQLException {
        try (PreparedStatement charge = connection.prepareStatement("UPDATE " + prefix + "_sku SET stock = stock - ? WHERE id = ? AND stock >= ?")) {
            charge.setInt(1, quantity);
            charge.setLong(2, skuId);
            charge.setInt(3, quantity);
            return charge.executeUpdate() == 1;
        }
    }

    /** @throws java.sql.SQLIntegrityConstraintViolationException when the buyer has an order of the SKU already */
    void insertOrder(Connection connection, String orderId, long skuId, String userId, int quantity) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO " + prefix + "_orders (order_id, sku_id, user_id, quantity) VALUES (?, ?, ?, ?)")) {
            insert.setString(1, orderId);
            insert.setLong(2, skuId);
            insert.setString(3, userId);
            insert.setInt(4, quantity);
            insert.executeUpdate();
        }
    }
}
