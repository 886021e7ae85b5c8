package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.config.Env;
import io.seckill.schemas.db.tables.records.OutboxRecord;
import io.seckill.schemas.events.OrderRequested;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The owner of the {@code outbox} table (Debezium's column layout plus relay bookkeeping): every
 * statement on it is here. A row is written with its order before the buyer's 202, completed when the
 * order is decided (or dead-lettered), re-published by the relay while it stays open past its due
 * time, and purged once it has been completed for longer than the retention.
 *
 * <p>Each method runs on the {@link DSLContext} it is given, so a caller's transaction can include it.
 */
public final class Outbox {

    /** How long a row may wait for its order to be decided before it is re-published (and the first wait between re-sends). */
    public static final String RELAY_GRACE = "SECKILL_RELAY_GRACE_MS";
    public static final String AGGREGATE_TYPE = "order";
    public static final String EVENT_TYPE = "OrderRequested";
    /** The type of a fence row: it holds an unrecorded order's id so that the order can never be recorded. */
    public static final String VOIDED_TYPE = "OrderVoided";
    private static final Duration DEFAULT_RELAY_GRACE = Duration.ofSeconds(10);
    private static final List<Field<?>> INSERTED = List.of(OUTBOX.ID, OUTBOX.AGGREGATETYPE, OUTBOX.AGGREGATEID, OUTBOX.TYPE,
            OUTBOX.PAYLOAD, OUTBOX.RELAY_AFTER, OUTBOX.USER_ID, OUTBOX.QUANTITY, OUTBOX.IDEMPOTENCY_KEY);

    private final Map<Integer, String> insertSql = new ConcurrentHashMap<>();

    public static Duration relayGrace(Env env) {
        return env.millis(RELAY_GRACE, DEFAULT_RELAY_GRACE);
    }

    /**
     * An order's event as written: {@code payload} is the encoded OrderRequested; the relay leaves it
     * alone until {@code relayAfter}; {@code idempotencyKey} is the buyer's Idempotency-Key, or null.
     * The row's {@code created_at} is the database's own time of the insert, the time the order was
     * recorded by a clock no ingress can get wrong.
     */
    public record NewRow(String orderId, long skuId, String userId, int quantity, String payload, String idempotencyKey,
                         Instant relayAfter) {

        public static NewRow of(OrderRequested order, String payload, String idempotencyKey, Duration relayGrace) {
            return new NewRow(order.orderId(), order.skuId(), order.userId(), order.quantity(), payload, idempotencyKey,
                    order.requestedAt().plus(relayGrace));
        }
    }

    /** An order reserved in Redis whose row may never have been written: what its fence row records. */
    public record Unrecorded(String orderId, long skuId, String userId, int quantity) {
    }

    /** An open row the relay re-publishes; {@code attempts}: how often the relay sent it before. */
    public record DueRow(String orderId, long skuId, String payload, int attempts) {
    }

    /**
     * How the relay spaces its sends of one row: the grace after the first, then twice as long after each
     * further one, up to {@code ceiling}. An order that is re-sent and still not decided is stuck behind
     * something re-sending cannot fix quickly; sending it as often again only piles duplicates onto it.
     */
    public record RelayBackoff(Duration grace, Duration ceiling) {

        public Duration after(int attemptsBefore) {
            Duration wait = grace;
            for (int i = 0; i < attemptsBefore && wait.compareTo(ceiling) < 0; i++) {
                wait = wait.multipliedBy(2);
            }
            return wait.compareTo(ceiling) < 0 ? wait : ceiling;
        }
    }

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
    public record Entry(String orderId, long skuId, String userId, int quantity, RowState state) {
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
                    insert.setString(column++, row.orderId());
                    insert.setString(column++, AGGREGATE_TYPE);
                    insert.setString(column++, Long.toString(row.skuId()));
                    insert.setString(column++, EVENT_TYPE);
                    insert.setString(column++, row.payload());
                    insert.setObject(column++, OUTBOX.RELAY_AFTER.getConverter().to(row.relayAfter()));
                    insert.setString(column++, row.userId());
                    insert.setInt(column++, row.quantity());
                    insert.setString(column++, row.idempotencyKey());
                }
                insert.executeUpdate();
            }
        });
    }

    private String insertSql(int rows) {
        return insertSql.computeIfAbsent(rows, count -> "INSERT INTO " + OUTBOX.getName() + " ("
                + INSERTED.stream().map(Field::getName).collect(Collectors.joining(", ")) + ") VALUES "
                + String.join(", ", Collections.nCopies(count, "(" + String.join(", ", Collections.nCopies(INSERTED.size(), "?")) + ")")));
    }

    /**
     * Makes sure none of these orders can ever be recorded: each gets a fence row under its id, unless
     * its own row was written first. Race-free against a late insert of the order: whichever of the two
     * rows the database takes first, the other fails on the primary key.
     * @return the orders that are fenced now (by this call or an earlier one): never recorded, never to be
     */
    public Set<String> voidUnrecorded(DSLContext db, Collection<Unrecorded> orders, Instant at) {
        if (orders.isEmpty()) {
            return Set.of();
        }
        var insert = db.insertInto(OUTBOX, OUTBOX.ID, OUTBOX.AGGREGATETYPE, OUTBOX.AGGREGATEID, OUTBOX.TYPE, OUTBOX.PAYLOAD,
                OUTBOX.CREATED_AT, OUTBOX.RELAY_AFTER, OUTBOX.COMPLETED_AT, OUTBOX.USER_ID, OUTBOX.QUANTITY);
        for (Unrecorded order : orders) {
            insert = insert.values(order.orderId(), AGGREGATE_TYPE, Long.toString(order.skuId()), VOIDED_TYPE, "", at, at, at,
                    order.userId(), order.quantity());
        }
        insert.onDuplicateKeyIgnore().execute();
        return Set.copyOf(db.select(OUTBOX.ID).from(OUTBOX)
                .where(OUTBOX.ID.in(orders.stream().map(Unrecorded::orderId).toList()))
                .and(OUTBOX.TYPE.eq(VOIDED_TYPE))
                .fetch(OUTBOX.ID));
    }

    /** An order made with an Idempotency-Key. */
    public record KeyedOrder(String orderId, long skuId) {
    }

    /** Whether any order of the SKU was ever recorded (or fenced) and its row is kept. */
    public boolean anyFor(DSLContext db, long skuId) {
        return db.fetchExists(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(skuId)));
    }

    /** When MySQL recorded each of these orders, by its own clock; orders without a row are left out. */
    public Map<String, Instant> recordedAt(DSLContext db, Collection<String> orderIds) {
        return db.select(OUTBOX.ID, OUTBOX.CREATED_AT).from(OUTBOX)
                .where(OUTBOX.ID.in(orderIds))
                .and(OUTBOX.TYPE.eq(EVENT_TYPE))
                .fetchMap(OUTBOX.ID, OUTBOX.CREATED_AT);
    }

    /** The order a buyer made with an Idempotency-Key, while its row is kept. */
    public Optional<KeyedOrder> orderForKey(DSLContext db, String userId, String idempotencyKey) {
        return db.select(OUTBOX.ID, OUTBOX.AGGREGATEID).from(OUTBOX)
                .where(OUTBOX.USER_ID.eq(userId))
                .and(OUTBOX.IDEMPOTENCY_KEY.eq(idempotencyKey))
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

    /** A buyer's rows of one SKU, newest first (at most {@code limit}). */
    public List<Entry> ofBuyer(DSLContext db, String userId, long skuId, int limit) {
        return db.selectFrom(OUTBOX)
                .where(OUTBOX.USER_ID.eq(userId))
                .and(OUTBOX.AGGREGATEID.eq(Long.toString(skuId)))
                .orderBy(OUTBOX.CREATED_AT.desc())
                .limit(limit)
                .fetch(Outbox::entryOf);
    }

    private static Entry entryOf(OutboxRecord row) {
        return new Entry(row.getId(), Long.parseLong(row.getAggregateid()), row.getUserId(), row.getQuantity(),
                stateOf(row.getType(), row.getCompletedAt()));
    }

    private static RowState stateOf(String type, Instant completedAt) {
        if (VOIDED_TYPE.equals(type)) {
            return RowState.VOIDED;
        }
        return completedAt == null ? RowState.OPEN : RowState.COMPLETED;
    }

    /** Marks the orders' rows completed (decided or dead-lettered); rows completed before keep their time. */
    public void complete(DSLContext db, Collection<String> orderIds, Instant at) {
        db.update(OUTBOX).set(OUTBOX.COMPLETED_AT, at)
                .where(OUTBOX.ID.in(orderIds))
                .and(OUTBOX.COMPLETED_AT.isNull())
                .execute();
    }

    /**
     * Claims up to {@code limit} open rows due at {@code now} that the relay sent fewer than
     * {@code maxAttempts} times, in one short transaction (FOR UPDATE SKIP LOCKED, so several relays share
     * the work): each is counted as sent once more and made due again after its backoff. The caller sends
     * them after the commit, holding no row lock while it waits for Kafka; a send that fails leaves the
     * row to come due again. Chosen by due time, never by an id cursor: ids commit out of order.
     */
    public List<DueRow> claimDue(DSLContext db, Instant now, RelayBackoff backoff, int maxAttempts, int limit) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<DueRow> due = lockDue(tx, now, OUTBOX.RELAY_ATTEMPTS.lt(maxAttempts), limit);
            due.stream().collect(Collectors.groupingBy(DueRow::attempts)).forEach((attempts, rows) -> tx.update(OUTBOX)
                    .set(OUTBOX.RELAY_AFTER, now.plus(backoff.after(attempts)))
                    .set(OUTBOX.RELAY_ATTEMPTS, attempts + 1)
                    .where(OUTBOX.ID.in(rows.stream().map(DueRow::orderId).toList()))
                    .execute());
            return due;
        });
    }

    /**
     * Locks, in the caller's transaction, up to {@code limit} open rows due at {@code now} that the relay
     * already sent {@code maxAttempts} times: the ones it gives up on.
     */
    public List<DueRow> lockExhausted(DSLContext tx, Instant now, int maxAttempts, int limit) {
        return lockDue(tx, now, OUTBOX.RELAY_ATTEMPTS.ge(maxAttempts), limit);
    }

    private static List<DueRow> lockDue(DSLContext tx, Instant now, Condition attempts, int limit) {
        return tx.select(OUTBOX.ID, OUTBOX.AGGREGATEID, OUTBOX.PAYLOAD, OUTBOX.RELAY_ATTEMPTS)
                .from(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.isNull())
                .and(OUTBOX.RELAY_AFTER.le(now))
                .and(attempts)
                .orderBy(OUTBOX.RELAY_AFTER)
                .limit(limit)
                .forUpdate().skipLocked()
                .fetch(row -> new DueRow(row.value1(), Long.parseLong(row.value2()), row.value3(), row.value4()));
    }

    /** Units of orders recorded and not decided yet, per SKU (SKUs with none are left out). */
    public Map<Long, Integer> openQuantities(DSLContext db) {
        return db.select(OUTBOX.AGGREGATEID, DSL.sum(OUTBOX.QUANTITY))
                .from(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.isNull())
                .groupBy(OUTBOX.AGGREGATEID)
                .fetchMap(row -> Long.parseLong(row.value1()), row -> row.value2().intValue());
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

    public Optional<Entry> find(DSLContext db, String orderId) {
        return Optional.ofNullable(db.fetchOne(OUTBOX, OUTBOX.ID.eq(orderId))).map(Outbox::entryOf);
    }

    /**
     * Deletes up to {@code limit} rows completed before {@code cutoff}; open rows are never touched.
     * @return rows deleted
     */
    public int purgeCompletedBefore(DSLContext db, Instant cutoff, int limit) {
        return db.deleteFrom(OUTBOX)
                .where(OUTBOX.COMPLETED_AT.lt(cutoff))
                .orderBy(OUTBOX.COMPLETED_AT)
                .limit(limit)
                .execute();
    }
}
