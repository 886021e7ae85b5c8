package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDERS;

import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep8;
import org.jooq.impl.DSL;

/**
 * The owner of the {@code orders} table: every decided order, CONFIRMED or REJECTED, unique by order id.
 * Each method runs on the {@link DSLContext} it is given, so a caller's transaction can include it.
 */
public final class Orders {

    /** The decisions already recorded for any of these orders, by order id. */
    public Map<String, OrderResult> decided(DSLContext db, Collection<String> orderIds) {
        return db.selectFrom(ORDERS).where(ORDERS.ORDER_ID.in(orderIds)).fetchMap(ORDERS.ORDER_ID, Orders::resultOf);
    }

    public Optional<OrderResult> find(DSLContext db, String orderId) {
        return Optional.ofNullable(decided(db, List.of(orderId)).get(orderId));
    }

    /** A buyer's decided orders of one SKU, newest first (at most {@code limit}). */
    public List<OrderResult> ofBuyer(DSLContext db, String userId, long skuId, int limit) {
        return db.selectFrom(ORDERS)
                .where(ORDERS.SKU_ID.eq(skuId)).and(ORDERS.USER_ID.eq(userId))
                .orderBy(ORDERS.REQUESTED_AT.desc())
                .limit(limit)
                .fetch(Orders::resultOf);
    }

    public boolean exists(DSLContext db, String orderId) {
        return db.fetchExists(ORDERS, ORDERS.ORDER_ID.eq(orderId));
    }

    public boolean anyFor(DSLContext db, long skuId) {
        return db.fetchExists(ORDERS, ORDERS.SKU_ID.eq(skuId));
    }

    public long confirmedQuantity(DSLContext db, long skuId) {
        BigDecimal confirmed = db.select(DSL.sum(ORDERS.QUANTITY)).from(ORDERS)
                .where(ORDERS.SKU_ID.eq(skuId)).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .fetchOne(0, BigDecimal.class);
        return confirmed == null ? 0 : confirmed.longValue();
    }

    /** @param decisions one per order of {@code orders}, in the same order */
    public void insert(DSLContext tx, List<OrderRequested> orders, List<OrderResult> decisions) {
        InsertValuesStep8<OrdersRecord, String, Long, String, Integer, OrderStatus, RejectReason, Instant, Instant> insert =
                tx.insertInto(ORDERS, ORDERS.ORDER_ID, ORDERS.SKU_ID, ORDERS.USER_ID, ORDERS.QUANTITY,
                        ORDERS.STATUS, ORDERS.REASON, ORDERS.REQUESTED_AT, ORDERS.DECIDED_AT);
        for (int i = 0; i < decisions.size(); i++) {
            OrderResult result = decisions.get(i);
            insert = insert.values(result.orderId(), result.skuId(), result.userId(), result.quantity(),
                    result.status(), result.reason(), orders.get(i).requestedAt(), result.decidedAt());
        }
        insert.execute();
    }

    private static OrderResult resultOf(OrdersRecord row) {
        return new OrderResult(OrderResult.CURRENT_VERSION, row.getOrderId(), row.getSkuId(), row.getUserId(),
                row.getQuantity(), row.getStatus(), row.getReason(), row.getDecidedAt());
    }
}
