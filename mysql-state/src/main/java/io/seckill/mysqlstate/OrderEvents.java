package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;

import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderLifecycleEvent;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The owner of the {@code order_events} table, the lifecycle's outbox: each order that ended has one row,
 * written in the transaction that ended it, completed once the reconciler consumed it (and, for a
 * cancellation or expiry, gave its units back to Redis), re-published while it stays open past its due
 * time, purged after the retention. Each method runs on the {@link DSLContext} it is given.
 */
public final class OrderEvents {

    public static final String AGGREGATE_TYPE = "order";

    /** An open row the relay re-publishes. */
    public record DueEvent(String orderId, String payload) {
    }

    /** Writes the events, each due for the relay at {@code relayAfter} unless consumed before. */
    public void insert(DSLContext tx, Collection<? extends OrderLifecycleEvent> events, Instant relayAfter) {
        var insert = tx.insertInto(ORDER_EVENTS, ORDER_EVENTS.ID, ORDER_EVENTS.AGGREGATETYPE, ORDER_EVENTS.AGGREGATEID,
                ORDER_EVENTS.TYPE, ORDER_EVENTS.PAYLOAD, ORDER_EVENTS.SKU_ID, ORDER_EVENTS.USER_ID, ORDER_EVENTS.QUANTITY,
                ORDER_EVENTS.RETURNS_STOCK, ORDER_EVENTS.CREATED_AT, ORDER_EVENTS.RELAY_AFTER);
        for (OrderLifecycleEvent event : events) {
            insert = insert.values(event.orderId(), AGGREGATE_TYPE, event.orderId(), event.type(), EventJson.encodeToString(event),
                    event.skuId(), event.userId(), event.quantity(), event.returnsStock(), event.at(), relayAfter);
        }
        insert.execute();
    }

    /**
     * Claims up to {@code limit} open rows due at {@code now} in one short transaction (FOR UPDATE SKIP
     * LOCKED: several relays share them), each made due again after its backoff; the caller sends them after
     * the commit. A lifecycle event is re-sent until it is consumed: its units are not back in Redis before.
     */
    public List<DueEvent> claimDue(DSLContext db, Instant now, Outbox.RelayBackoff backoff, int limit) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            var due = tx.select(ORDER_EVENTS.ID, ORDER_EVENTS.PAYLOAD, ORDER_EVENTS.RELAY_ATTEMPTS)
                    .from(ORDER_EVENTS)
                    .where(ORDER_EVENTS.COMPLETED_AT.isNull())
                    .and(ORDER_EVENTS.RELAY_AFTER.le(now))
                    .orderBy(ORDER_EVENTS.RELAY_AFTER)
                    .limit(limit)
                    .forUpdate().skipLocked()
                    .fetch();
            due.stream().collect(Collectors.groupingBy(row -> row.value3())).forEach((attempts, rows) -> tx.update(ORDER_EVENTS)
                    .set(ORDER_EVENTS.RELAY_AFTER, now.plus(backoff.after(attempts)))
                    .set(ORDER_EVENTS.RELAY_ATTEMPTS, attempts + 1)
                    .where(ORDER_EVENTS.ID.in(rows.stream().map(row -> row.value1()).toList()))
                    .execute());
            return due.map(row -> new DueEvent(row.value1(), row.value2()));
        });
    }

    /** Marks the orders' events consumed; rows completed before keep their time. */
    public void complete(DSLContext db, Collection<String> orderIds, Instant at) {
        db.update(ORDER_EVENTS).set(ORDER_EVENTS.COMPLETED_AT, at)
                .where(ORDER_EVENTS.ID.in(orderIds))
                .and(ORDER_EVENTS.COMPLETED_AT.isNull())
                .execute();
    }

    /**
     * Units MySQL took back from cancelled or expired orders that Redis has not been given yet, per SKU
     * (SKUs with none are left out): stock on its way, not drift.
     */
    public Map<Long, Integer> returningQuantities(DSLContext db) {
        return db.select(ORDER_EVENTS.SKU_ID, DSL.sum(ORDER_EVENTS.QUANTITY))
                .from(ORDER_EVENTS)
                .where(ORDER_EVENTS.COMPLETED_AT.isNull())
                .and(ORDER_EVENTS.RETURNS_STOCK.isTrue())
                .groupBy(ORDER_EVENTS.SKU_ID)
                .fetchMap(ORDER_EVENTS.SKU_ID, row -> row.value2().intValue());
    }

    /** The orders of the SKU whose units MySQL took back, while their rows are kept. */
    public List<String> returnedOrders(DSLContext db, long skuId) {
        return db.select(ORDER_EVENTS.ID).from(ORDER_EVENTS)
                .where(ORDER_EVENTS.SKU_ID.eq(skuId))
                .and(ORDER_EVENTS.RETURNS_STOCK.isTrue())
                .fetch(ORDER_EVENTS.ID);
    }

    /**
     * Deletes up to {@code limit} rows completed before {@code cutoff}; open rows are never touched.
     * @return rows deleted
     */
    public int purgeCompletedBefore(DSLContext db, Instant cutoff, int limit) {
        return db.deleteFrom(ORDER_EVENTS)
                .where(ORDER_EVENTS.COMPLETED_AT.lt(cutoff))
                .orderBy(ORDER_EVENTS.COMPLETED_AT)
                .limit(limit)
                .execute();
    }
}
