package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.schemas.db.tables.records.OutboxRecord;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * Reads the {@code outbox} table: where an order's row stands, a buyer's orders, the order an
 * Idempotency-Key made, what is still open. Each method runs on the {@link DSLContext} it is given.
 */
public final class OutboxLookups {

    /** Where an order's row stands. */
    public enum RowState {
        /** Recorded, not decided yet. */
        OPEN,
        /** Recorded and decided (or dead-lettered). */
        COMPLETED,
        /** Never recorded: a fence holds its id. */
        VOIDED
    }

    /** What the outbox knows of one order. */
    public record Entry(OrderFacts order, RowState state) {
    }

    /** An order made with an Idempotency-Key. */
    public record KeyedOrder(String orderId, long skuId) {
    }

    /** Whether any order of the SKU was ever recorded (or fenced) and its row is kept. */
    public boolean anyFor(DSLContext db, long skuId) {
        return db.fetchExists(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(skuId)));
    }

    /**
     * The orders these rows record, as their columns say (the payload is what was sent, the columns what was checked
     * when it was written), {@code requestedAt} being when MySQL recorded each by its own clock; ids without an order
     * row (none, a fence, a key fence) are left out.
     */
    public Map<String, Recorded> recordedOrders(DSLContext db, Collection<String> orderIds) {
        // Not the payload: the sink calls this for every order, and the columns are what it checks.
        return db.select(
                        OUTBOX.ID,
                        OUTBOX.AGGREGATEID,
                        OUTBOX.USER_ID,
                        OUTBOX.QUANTITY,
                        OUTBOX.CREATED_AT,
                        OUTBOX.TRACEPARENT)
                .from(OUTBOX)
                .where(OUTBOX.ID.in(orderIds))
                .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                .fetchMap(
                        OUTBOX.ID,
                        row -> new Recorded(
                                OrderRequested.of(
                                        row.value1(),
                                        Long.parseLong(row.value2()),
                                        row.value3(),
                                        row.value4(),
                                        row.value5()),
                                row.value6()));
    }

    /** An order as its outbox row records it, with the trace it was placed under (null for rows from before traces). */
    public record Recorded(OrderRequested order, String traceparent) {
    }

    /** The order a buyer made with an Idempotency-Key, while its row is kept; none when a key fence holds the key. */
    public Optional<KeyedOrder> orderForKey(DSLContext db, String userId, String idempotencyKey) {
        return db.select(OUTBOX.ID, OUTBOX.AGGREGATEID).from(OUTBOX)
                .where(OUTBOX.USER_ID.eq(userId))
                .and(OUTBOX.IDEMPOTENCY_KEY.eq(idempotencyKey))
                .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                .fetchOptional(row -> new KeyedOrder(row.value1(), Long.parseLong(row.value2())));
    }

    /** Where each of these orders' rows stands; orders without a row are left out. */
    public Map<String, RowState> states(DSLContext db, Collection<String> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        return db.select(OUTBOX.ID, OUTBOX.TYPE, OUTBOX.COMPLETED_AT).from(OUTBOX)
                .where(OUTBOX.ID.in(orderIds))
                .fetchMap(OUTBOX.ID, row -> stateOf(row.value2(), row.value3()));
    }

    /** A buyer's rows of one SKU (orders and their fences, not key fences), newest first (at most {@code limit}). */
    public List<Entry> ofBuyer(DSLContext db, String userId, long skuId, int limit) {
        return db.selectFrom(OUTBOX)
                .where(OUTBOX.USER_ID.eq(userId))
                .and(OUTBOX.AGGREGATEID.eq(Long.toString(skuId)))
                .and(OUTBOX.TYPE.ne(Outbox.KEY_REFUSED_TYPE))
                .orderBy(OUTBOX.CREATED_AT.desc())
                .limit(limit)
                .fetch(OutboxLookups::entryOf);
    }

    private static Entry entryOf(OutboxRecord row) {
        return new Entry(
                new OrderFacts(row.getId(), Long.parseLong(row.getAggregateid()), row.getUserId(), row.getQuantity()),
                stateOf(row.getType(), row.getCompletedAt()));
    }

    private static RowState stateOf(String type, Instant completedAt) {
        if (Outbox.VOIDED_TYPE.equals(type)) {
            return RowState.VOIDED;
        }
        return completedAt == null ? RowState.OPEN : RowState.COMPLETED;
    }

    /** Units of orders recorded and not decided yet, per SKU (SKUs with none are left out). */
    public Map<Long, Integer> openQuantities(DSLContext db) {
        return db.select(OUTBOX.AGGREGATEID, DSL.sum(OUTBOX.QUANTITY))
                .from(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.isNull())
                .groupBy(OUTBOX.AGGREGATEID)
                .fetchMap(row -> Long.parseLong(row.value1()), row -> row.value2().intValue());
    }

    /** Orders recorded and not decided yet, per SKU (SKUs with none are left out). */
    public Map<Long, Integer> openOrders(DSLContext db) {
        return db.select(OUTBOX.AGGREGATEID, DSL.count())
                .from(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.isNull())
                .groupBy(OUTBOX.AGGREGATEID)
                .fetchMap(row -> Long.parseLong(row.value1()), Record2::value2);
    }

    /** How many rows are still open (orders not decided yet) and when the oldest of them was written. */
    public record Backlog(int openRows, Optional<Instant> oldestCreatedAt) {
    }

    /** Reads the open rows through the relay index: completed rows, however many, are not visited. */
    public Backlog backlog(DSLContext db) {
        var row = db.select(DSL.count(), DSL.min(OUTBOX.CREATED_AT))
                .from(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.isNull())
                .fetchSingle();
        return new Backlog(row.value1(), Optional.ofNullable(row.value2()));
    }

    /** An order's open row: the order its columns record, and the payload that is sent for it. */
    public record OpenOrder(OrderRequested order, String payload) {

        /**
         * Whether the payload is a valid order request saying what the columns say; if not, no copy of it can ever be
         * decided.
         */
        public boolean payloadIsSound() {
            try {
                return OrderFacts.of(EventJson.decode(payload.getBytes(StandardCharsets.UTF_8), OrderRequested.class))
                        .equals(OrderFacts.of(order));
            } catch (InvalidEventException poison) {
                return false;
            }
        }
    }

    /**
     * The order an open row records, built from the row's columns (its payload may be what broke), the row locked until
     * the caller's transaction ends; empty when there is no such row or it is closed.
     */
    public Optional<OpenOrder> lockOpenOrder(DSLContext tx, String orderId) {
        return tx.selectFrom(OUTBOX)
                .where(OUTBOX.ID.eq(orderId))
                .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                .and(OUTBOX.COMPLETED_AT.isNull())
                .forUpdate()
                .fetchOptional(row -> new OpenOrder(orderOf(row), row.getPayload()));
    }

    private static OrderRequested orderOf(OutboxRecord row) {
        return OrderRequested.of(
                row.getId(),
                Long.parseLong(row.getAggregateid()),
                row.getUserId(),
                row.getQuantity(),
                row.getCreatedAt());
    }

    public Optional<Entry> find(DSLContext db, String orderId) {
        return Optional.ofNullable(db.fetchOne(OUTBOX, OUTBOX.ID.eq(orderId))).map(OutboxLookups::entryOf);
    }
}
