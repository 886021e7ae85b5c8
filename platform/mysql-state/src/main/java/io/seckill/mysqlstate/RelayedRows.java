package io.seckill.mysqlstate;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The relay's side of an outbox table, which its owner inherits ({@link Outbox} for orders, {@link OrderEvents} for
 * the lifecycle): open rows claimed when they come due and sent again, completed once consumed, purged after the
 * retention. Both tables share these columns, so the bookkeeping is written once; each table still has one writing
 * class, its owner. Each method runs on the {@link DSLContext} it is given.
 */
public abstract sealed class RelayedRows permits Outbox, OrderEvents {

    /**
     * An open row the relay sends: {@code key} is its record's key, {@code attempts} how often it was sent before,
     * {@code traceparent} the trace its record carries (null for rows written before traces existed).
     */
    public record Due(String id, String key, String payload, int attempts, String traceparent) {
    }

    private final Table<?> table;
    private final Field<String> id;
    private final Field<String> key;
    private final Field<String> payload;
    private final Field<Instant> relayAfter;
    private final Field<Integer> attempts;
    private final Field<Integer> acks;
    private final Field<Instant> completedAt;
    private final Field<String> traceparent;

    RelayedRows(
            Table<?> table,
            Field<String> id,
            Field<String> key,
            Field<String> payload,
            Field<Instant> relayAfter,
            Field<Integer> attempts,
            Field<Integer> acks,
            Field<Instant> completedAt,
            Field<String> traceparent) {
        this.table = table;
        this.id = id;
        this.key = key;
        this.payload = payload;
        this.relayAfter = relayAfter;
        this.attempts = attempts;
        this.acks = acks;
        this.completedAt = completedAt;
        this.traceparent = traceparent;
    }

    /**
     * Claims up to {@code limit} open rows due at {@code now}, in one short transaction (FOR UPDATE SKIP
     * LOCKED, so several relays share the work): each is counted as sent once more and made due again
     * after its backoff. The caller sends them after the commit, holding no row lock while it waits for
     * Kafka; a send that fails leaves the row to come due again. Chosen by due time, never by an id
     * cursor: ids commit out of order.
     */
    public List<Due> claimDue(DSLContext db, Instant now, RelayBackoff backoff, int limit) {
        return claimDue(db, now, backoff, DSL.noCondition(), limit);
    }

    /**
     * The same, of the rows sent fewer than {@code maxAttempts} times or acknowledged by the broker at least once:
     * those the relay never gives up on.
     */
    public List<Due> claimDue(DSLContext db, Instant now, RelayBackoff backoff, int maxAttempts, int limit) {
        return claimDue(db, now, backoff, attempts.lt(maxAttempts).or(acks.gt(0)), limit);
    }

    private List<Due> claimDue(DSLContext db, Instant now, RelayBackoff backoff, Condition which, int limit) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<Due> due = lockDue(tx, now, which, limit);
            due.stream().collect(Collectors.groupingBy(Due::attempts)).forEach((sentBefore, rows) -> tx.update(table)
                    .set(relayAfter, now.plus(backoff.after(sentBefore)))
                    .set(attempts, sentBefore + 1)
                    .where(id.in(rows.stream().map(Due::id).toList()))
                    .execute());
            return due;
        });
    }

    /**
     * Hands back claimed rows whose send the broker did not acknowledge: due again at {@code retryAt},
     * the claim not counted. An outage then neither pushes the next send back by a growing backoff nor
     * brings a row closer to being given up; the send goes out soon after the broker answers again.
     */
    public void unclaim(DSLContext db, List<Due> claimed, Instant retryAt) {
        claimed.stream().collect(Collectors.groupingBy(Due::attempts)).forEach((sentBefore, rows) -> db.update(table)
                .set(relayAfter, retryAt)
                .set(attempts, sentBefore)
                .where(id.in(rows.stream().map(Due::id).toList()))
                .and(completedAt.isNull())
                .execute());
    }

    /** Counts one acknowledged send more on each of the rows: the broker took their records. */
    public void acknowledged(DSLContext db, List<Due> sent) {
        if (!sent.isEmpty()) {
            db.update(table).set(acks, acks.plus(1)).where(id.in(sent.stream().map(Due::id).toList())).execute();
        }
    }

    /**
     * Locks, in the caller's transaction, up to {@code limit} open rows due at {@code now} that the relay
     * sent {@code maxAttempts} times without the broker acknowledging one: the ones it gives up on.
     */
    public List<Due> lockExhausted(DSLContext tx, Instant now, int maxAttempts, int limit) {
        return lockDue(tx, now, attempts.ge(maxAttempts).and(acks.eq(0)), limit);
    }

    private List<Due> lockDue(DSLContext tx, Instant now, Condition which, int limit) {
        return tx.select(id, key, payload, attempts, traceparent)
                .from(table)
                .where(completedAt.isNull())
                .and(relayAfter.le(now))
                .and(which)
                .orderBy(relayAfter)
                .limit(limit)
                .forUpdate().skipLocked()
                .fetch(row -> new Due(row.value1(), row.value2(), row.value3(), row.value4(), row.value5()));
    }

    /** Marks the rows completed (consumed, decided or dead-lettered); rows completed before keep their time. */
    public void complete(DSLContext db, Collection<String> ids, Instant at) {
        db.update(table).set(completedAt, at)
                .where(id.in(ids))
                .and(completedAt.isNull())
                .execute();
    }

    /**
     * Deletes up to {@code limit} rows completed before {@code cutoff}; open rows are never touched.
     * @return rows deleted
     */
    public int purgeCompletedBefore(DSLContext db, Instant cutoff, int limit) {
        return db.deleteFrom(table)
                .where(completedAt.lt(cutoff))
                .orderBy(completedAt)
                .limit(limit)
                .execute();
    }
}
