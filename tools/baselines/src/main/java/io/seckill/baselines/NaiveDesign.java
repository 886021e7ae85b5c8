package io.seckill.baselines;

import io.javalin.http.Context;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The textbook starting point: one MySQL transaction per buy request, answered after its commit. A
 * conditional UPDATE takes the stock ({@code stock >= q}, so never below zero), the order goes in under a
 * unique (sku, buyer) key (the per-user limit: one order per buyer and SKU), and either failure rolls
 * the transaction back. Pooled connections and prepared statements, the indexes of {@link BaselineSql}.
 */
final class NaiveDesign {

    static final BaselineSql SQL = Baseline.NAIVE.tables();

    private final DataSource database;

    NaiveDesign(DataSource database) {
        this.database = database;
    }

    void buy(Context ctx, long skuId, String userId, int quantity) throws SQLException {
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            if (!SQL.charge(connection, skuId, quantity)) {
                connection.rollback();
                BaselineHttp.answer(ctx, 409, "SOLD_OUT");
                return;
            }
            String orderId = UUID.randomUUID().toString();
            try {
                SQL.insertOrder(connection, orderId, skuId, userId, quantity);
            } catch (SQLIntegrityConstraintViolationException alreadyBought) {
                connection.rollback();
                BaselineHttp.answer(ctx, 409, "PURCHASE_LIMIT_REACHED");
                return;
            }
            connection.commit();
            BaselineHttp.accepted(ctx, 201, orderId);
        }
    }
}
