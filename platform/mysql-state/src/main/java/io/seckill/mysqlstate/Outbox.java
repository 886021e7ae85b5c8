package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.config.Env;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.trace.TraceParent;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * Writes the {@code outbox} table (Debezium's column layout plus relay bookkeeping): a row with its
 * order before the buyer's 202, or a fence row that keeps an unrecorded order from ever being recorded.
 * Reading the rows is {@link OutboxLookups}'s job; completing, re-sending and purging them is the relay's
 * bookkeeping this class inherits ({@link RelayedRows}).
 *
 * <p>Each method runs on the {@link DSLContext} it is given, so a caller's transaction can include it.
 */
public final class Outbox extends RelayedRows {

    /**
     * How long a row may wait for its order to be decided before it is re-published (and the first wait between
     * re-sends).
     */
    public static final String RELAY_GRACE = "SECKILL_RELAY_GRACE_MS";

    public static final String AGGREGATE_TYPE = "order";
    public static final String EVENT_TYPE = "OrderRequested";
    /** The type of a fence row: it holds an unrecorded order's id so that the order can never be recorded. */
    public static final String VOIDED_TYPE = "OrderVoided";
    /**
     * The type of a key fence: it holds a buyer's Idempotency-Key whose answer was a refusal, so that no order is ever
     * recorded under it.
     */
    public static final String KEY_REFUSED_TYPE = "IdempotencyKeyRefused";

    private static final Duration DEFAULT_RELAY_GRACE = Duration.ofSeconds(10);
    private static final List<Field<?>> INSERTED = List.of(
            OUTBOX.ID,
            OUTBOX.AGGREGATETYPE,
            OUTBOX.AGGREGATEID,
            OUTBOX.TYPE,
            OUTBOX.PAYLOAD,
            OUTBOX.RELAY_AFTER,
            OUTBOX.USER_ID,
            OUTBOX.QUANTITY,
            OUTBOX.IDEMPOTENCY_KEY,
            OUTBOX.TRACEPARENT);

    private final Map<Integer, String> insertSql = new ConcurrentHashMap<>();

    /** The orders' outbox: a row's key is its SKU id (order-requests is keyed by SKU). */
    public Outbox() {
        super(
                OUTBOX,
                OUTBOX.ID,
                OUTBOX.AGGREGATEID,
                OUTBOX.PAYLOAD,
                OUTBOX.RELAY_AFTER,
                OUTBOX.RELAY_ATTEMPTS,
                OUTBOX.RELAY_ACKS,
                OUTBOX.COMPLETED_AT,
                OUTBOX.TRACEPARENT);
    }

    public static Duration relayGrace(Env env) {
        return env.millis(RELAY_GRACE, DEFAULT_RELAY_GRACE);
    }

    /**
     * An order's event as written: {@code payload} is the encoded OrderRequested; the relay leaves it
     * alone until {@code relayAfter}; {@code idempotencyKey} is the buyer's Idempotency-Key, or null.
     * The row's {@code created_at} is the database's own time of the insert, the time the order was
     * recorded by a clock no ingress can get wrong.
     */
    public record NewRow(
            OrderFacts order, String payload, String idempotencyKey, Instant relayAfter, String traceparent) {

        public static NewRow of(
                OrderRequested order, String payload, String idempotencyKey, Duration relayGrace, TraceParent trace) {
            return new NewRow(OrderFacts.of(order), payload, idempotencyKey, order.requestedAt().plus(relayGrace),
                    trace.toString());
        }
    }

    /**
     * Writes the rows as one multi-row INSERT: one round trip and one commit, atomic on its own. Bound
     * over plain JDBC with the statement text cached per row count, because this is the storm's one
     * serial step and building it through jOOQ's query model cost more than the database's own work.
     */
    public void insert(DSLContext db, List<NewRow> rows) {
        db.connection(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(rows.size()))) {
                int column = 1;
                for (NewRow row : rows) {
                    insert.setString(column++, row.order().orderId());
                    insert.setString(column++, AGGREGATE_TYPE);
                    insert.setString(column++, Long.toString(row.order().skuId()));
                    insert.setString(column++, EVENT_TYPE);
                    insert.setString(column++, row.payload());
                    insert.setObject(column++, OUTBOX.RELAY_AFTER.getConverter().to(row.relayAfter()));
                    insert.setString(column++, row.order().userId());
                    insert.setInt(column++, row.order().quantity());
                    insert.setString(column++, row.idempotencyKey());
                    insert.setString(column++, row.traceparent());
                }
                insert.executeUpdate();
            }
        });
    }

    private String insertSql(int rows) {
        return insertSql.computeIfAbsent(
                rows,
                count -> "INSERT INTO " + OUTBOX.getName() + " ("
                        + INSERTED.stream().map(Field::getName).collect(Collectors.joining(", ")) + ") VALUES "
                        + String.join(
                                ", ",
                                Collections.nCopies(
                                        count,
                                        "(" + String.join(", ", Collections.nCopies(INSERTED.size(), "?")) + ")")));
    }

    /**
     * Makes sure no order is ever recorded under this buyer's key, unless one already is: a key fence row
     * (completed at once, so no job reads it as an order) takes the key's place in the unique index of buyer
     * and key, and whichever of it and the order's row the database takes first, the other fails.
     * {@link OutboxLookups#orderForKey} then says which. Run again when it was a deadlock's victim (it and the
     * order's insert, both waiting on a third row of the key, deadlock when it goes).
     */
    public void fenceKey(DSLContext db, String userId, long skuId, String idempotencyKey, Instant at) {
        DeadlockRetry.run(() -> db.insertInto(
                        OUTBOX,
                        OUTBOX.ID,
                        OUTBOX.AGGREGATETYPE,
                        OUTBOX.AGGREGATEID,
                        OUTBOX.TYPE,
                        OUTBOX.PAYLOAD,
                        OUTBOX.CREATED_AT,
                        OUTBOX.RELAY_AFTER,
                        OUTBOX.COMPLETED_AT,
                        OUTBOX.USER_ID,
                        OUTBOX.QUANTITY,
                        OUTBOX.IDEMPOTENCY_KEY)
                .values(
                        UUID.randomUUID().toString(),
                        AGGREGATE_TYPE,
                        Long.toString(skuId),
                        KEY_REFUSED_TYPE,
                        "",
                        at,
                        at,
                        at,
                        userId,
                        0,
                        idempotencyKey)
                .onDuplicateKeyIgnore()
                .execute());
    }

    /**
     * Makes sure none of these orders can ever be recorded: each gets a fence row under its id, unless
     * its own row was written first. Race-free against a late insert of the order: whichever of the two
     * rows the database takes first, the other fails on the primary key.
     * @return the orders that are fenced now (by this call or an earlier one): never recorded, never to be
     */
    public Set<String> voidUnrecorded(DSLContext db, Collection<OrderFacts> orders, Instant at) {
        if (orders.isEmpty()) {
            return Set.of();
        }
        var insert = db.insertInto(
                OUTBOX,
                OUTBOX.ID,
                OUTBOX.AGGREGATETYPE,
                OUTBOX.AGGREGATEID,
                OUTBOX.TYPE,
                OUTBOX.PAYLOAD,
                OUTBOX.CREATED_AT,
                OUTBOX.RELAY_AFTER,
                OUTBOX.COMPLETED_AT,
                OUTBOX.USER_ID,
                OUTBOX.QUANTITY);
        for (OrderFacts order : orders) {
            insert = insert.values(
                    order.orderId(),
                    AGGREGATE_TYPE,
                    Long.toString(order.skuId()),
                    VOIDED_TYPE,
                    "",
                    at,
                    at,
                    at,
                    order.userId(),
                    order.quantity());
        }
        insert.onDuplicateKeyIgnore().execute();
        return Set.copyOf(db.select(OUTBOX.ID).from(OUTBOX)
                .where(OUTBOX.ID.in(orders.stream().map(OrderFacts::orderId).toList()))
                .and(OUTBOX.TYPE.eq(VOIDED_TYPE))
                .fetch(OUTBOX.ID));
    }
}
