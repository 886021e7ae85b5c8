package io.seckill.ingress.buying;

import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.runtime.BatchQueue;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.trace.TraceParent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for outbox rows ({@link BatchQueue}). Every winner must have its row committed before
 * its 202, and one transaction per winner caps the ingress at the database's commit rate; instead a
 * batch of rows is one INSERT and one commit. A failed batch is retried row by row, so one bad row
 * fails alone. The batch's PENDING statuses go to Redis first, in one round trip, for the same reason.
 */
public final class OutboxWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxWriter.class);
    private static final int MAX_BATCH = 256;

    private final DSLContext dsl;
    private final Outbox outbox;
    private final OrderStatusStore statuses;
    private final IngressMetrics metrics;
    private final Duration relayGrace;
    private final Duration waitLimit;
    private final BatchQueue<Pending> writers;

    public OutboxWriter(
            DSLContext dsl,
            Outbox outbox,
            OrderStatusStore statuses,
            Duration relayGrace,
            Duration waitLimit,
            int writerThreads,
            IngressMetrics metrics) {
        this.dsl = dsl;
        this.outbox = outbox;
        this.statuses = statuses;
        this.metrics = metrics;
        this.relayGrace = relayGrace;
        this.waitLimit = waitLimit;
        this.writers =
                new BatchQueue<>("outbox-writer", writerThreads, MAX_BATCH, this::commit, IllegalStateException::new);
    }

    /**
     * Returns once the order's PENDING status is in Redis and its row is committed.
     * @param idempotencyKey the buyer's Idempotency-Key or null; a second row with the same key and buyer fails
     * @throws RuntimeException when either is not known to be done within the wait limit: the row may
     *         still have been committed, or be committed later ({@link OrderFence} settles which)
     */
    void write(OrderRequested order, String payload, String idempotencyKey, TraceParent trace) {
        Pending pending = new Pending(Outbox.NewRow.of(order, payload, idempotencyKey, relayGrace, trace),
                OrderView.pending(OrderFacts.of(order)), new CompletableFuture<>());
        writers.submit(List.of(pending));
        writers.await(pending.result(), waitLimit);
    }

    /**
     * A winner's outbox write, rehearsed: a fresh order of one unit, encoded as the buy path encodes it, inserted by
     * the same statement in a transaction that is then rolled back, so the code runs and no row, lock or key is left.
     * For the warm-up before a sale; it goes around the batching threads, which a batch of one would not warm any
     * better.
     * @return the order rehearsed, for the warm-up to send down the pipeline
     */
    public OrderRequested rehearseWrite(long skuId, String userId) {
        OrderRequested order = OrderRequested.of(
                OrderIds.next(), skuId, userId, 1, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        Outbox.NewRow row =
                Outbox.NewRow.of(order, EventJson.encodeToString(order), null, relayGrace, TraceParent.start());
        try {
            dsl.transaction(tx -> {
                outbox.insert(tx.dsl(), List.of(row));
                throw new RolledBack();
            });
        } catch (RolledBack expected) {
            // The rehearsal's end: nothing was committed.
        }
        return order;
    }

    /** Thrown inside the rehearsal's transaction, so that jOOQ rolls it back. */
    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RolledBack() {
            super(null, null, false, false);
        }
    }

    private void commit(List<Pending> batch) {
        long started = System.nanoTime();
        try {
            // PENDING goes to Redis before the row exists, so no decision on the order can precede it.
            statuses.putAll(batch.stream().map(Pending::status).toList());
        } catch (RuntimeException statusFailure) {
            batch.forEach(pending -> pending.result().completeExceptionally(statusFailure));
            return;
        }
        try {
            insert(batch);
            metrics.outboxCommitted(batch.size(), System.nanoTime() - started);
            batch.forEach(pending -> pending.result().complete(null));
        } catch (RuntimeException batchFailure) {
            if (batch.size() > 1) {
                LOG.warn("outbox batch of {} failed; writing its rows one by one", batch.size(), batchFailure);
            }
            for (Pending pending : batch) {
                try {
                    insert(List.of(pending));
                    pending.result().complete(null);
                } catch (RuntimeException rowFailure) {
                    pending.result().completeExceptionally(rowFailure);
                }
            }
        }
    }

    private void insert(List<Pending> rows) {
        outbox.insert(dsl, rows.stream().map(Pending::row).toList());
    }

    @Override
    public void close() {
        writers.close();
    }

    private record Pending(Outbox.NewRow row, OrderView status, CompletableFuture<Void> result)
            implements BatchQueue.Job {}
}
