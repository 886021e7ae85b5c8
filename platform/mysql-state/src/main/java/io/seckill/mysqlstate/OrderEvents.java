package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.ORDER_EVENTS;

import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderLifecycleEvent;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Record4;
import org.jooq.impl.DSL;

/**
 * Writes and reads the {@code order_events} table, the lifecycle's outbox: each order that ended has one
 * row, written in the transaction that ended it; completing, re-sending and purging the rows is
 * the relay's bookkeeping it inherits ({@link RelayedRows}); the units given back are marked when
 * {@link ReturnedUnits} asks. Each method runs on the {@link DSLContext} it is given.
 */
public final class OrderEvents extends RelayedRows {

    public static final String AGGREGATE_TYPE = "order";

    /** The lifecycle's outbox: a row's key is its order id (order-lifecycle is keyed by order). */
    public OrderEvents() {
        super(
                ORDER_EVENTS,
                ORDER_EVENTS.ID,
                ORDER_EVENTS.AGGREGATEID,
                ORDER_EVENTS.PAYLOAD,
                ORDER_EVENTS.RELAY_AFTER,
                ORDER_EVENTS.RELAY_ATTEMPTS,
                ORDER_EVENTS.RELAY_ACKS,
                ORDER_EVENTS.COMPLETED_AT,
                ORDER_EVENTS.TRACEPARENT);
    }

    /**
     * Writes the events, each due for the relay at {@code relayAfter} unless consumed before, each continuing the trace
     * of its order as the orders row records it.
     */
    public void insert(DSLContext tx, Collection<? extends OrderLifecycleEvent> events, Instant relayAfter) {
        var insert = tx.insertInto(
                ORDER_EVENTS,
                ORDER_EVENTS.ID,
                ORDER_EVENTS.AGGREGATETYPE,
                ORDER_EVENTS.AGGREGATEID,
                ORDER_EVENTS.TYPE,
                ORDER_EVENTS.PAYLOAD,
                ORDER_EVENTS.SKU_ID,
                ORDER_EVENTS.USER_ID,
                ORDER_EVENTS.QUANTITY,
                ORDER_EVENTS.RETURNS_STOCK,
                ORDER_EVENTS.CREATED_AT,
                ORDER_EVENTS.RELAY_AFTER,
                ORDER_EVENTS.TRACEPARENT);
        for (OrderLifecycleEvent event : events) {
            insert = insert.values(
                    DSL.val(event.orderId()),
                    DSL.val(AGGREGATE_TYPE),
                    DSL.val(event.orderId()),
                    DSL.val(event.type()),
                    DSL.val(EventJson.encodeToString(event)),
                    DSL.val(event.skuId()),
                    DSL.val(event.userId()),
                    DSL.val(event.quantity()),
                    DSL.val(event.returnsStock()),
                    DSL.val(event.at(), ORDER_EVENTS.CREATED_AT),
                    DSL.val(relayAfter, ORDER_EVENTS.RELAY_AFTER),
                    DSL.field(DSL.select(ORDERS.TRACEPARENT).from(ORDERS).where(ORDERS.ORDER_ID.eq(event.orderId()))));
        }
        insert.execute();
    }

    /**
     * Units MySQL took back from cancelled or expired orders that Redis has not been given yet, per SKU
     * (SKUs with none are left out): stock on its way, not drift. Units neither has taken back yet are in neither.
     */
    public Map<Long, Integer> returningQuantities(DSLContext db) {
        return db.select(ORDER_EVENTS.SKU_ID, DSL.sum(ORDER_EVENTS.QUANTITY))
                .from(ORDER_EVENTS)
                .where(ORDER_EVENTS.COMPLETED_AT.isNull())
                .and(ORDER_EVENTS.UNITS_RESTORED_AT.isNotNull())
                .groupBy(ORDER_EVENTS.SKU_ID)
                .fetchMap(ORDER_EVENTS.SKU_ID, row -> row.value2().intValue());
    }

    /** The orders of the SKU whose units MySQL took back ({@link ReturnedUnits}), while their rows are kept. */
    public List<String> returnedOrders(DSLContext db, long skuId) {
        return db.select(ORDER_EVENTS.ID).from(ORDER_EVENTS)
                .where(ORDER_EVENTS.SKU_ID.eq(skuId))
                .and(ORDER_EVENTS.UNITS_RESTORED_AT.isNotNull())
                .fetch(ORDER_EVENTS.ID);
    }

    /**
     * Locks, in id order, the events of {@code orderIds} that return stock and have not given it back yet: each one's
     * id, and the SKU, buyer and quantity of its order as the sink recorded it. Never the event row's own figures: the
     * buyers' ingress writes those, and no account but the sink's ever writes an order's SKU, buyer or quantity.
     */
    List<Record4<String, Long, String, Integer>> owingUnits(DSLContext tx, Collection<String> orderIds) {
        return tx.select(ORDER_EVENTS.ID, ORDERS.SKU_ID, ORDERS.USER_ID, ORDERS.QUANTITY)
                .from(ORDER_EVENTS)
                .join(ORDERS).on(ORDERS.ORDER_ID.eq(ORDER_EVENTS.ID))
                .where(ORDER_EVENTS.ID.in(orderIds))
                .and(ORDER_EVENTS.RETURNS_STOCK.isTrue())
                .and(ORDER_EVENTS.UNITS_RESTORED_AT.isNull())
                .orderBy(ORDER_EVENTS.ID)
                .forUpdate()
                .fetch();
    }

    /** Marks the events of {@code orderIds} as having given their units back at {@code now}. */
    void markUnitsRestored(DSLContext tx, Collection<String> orderIds, Instant now) {
        tx.update(ORDER_EVENTS).set(ORDER_EVENTS.UNITS_RESTORED_AT, now).where(ORDER_EVENTS.ID.in(orderIds)).execute();
    }
}
