package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.schemas.db.tables.records.OutboxRecord;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jooq.DSLContext;
import org.jooq.InsertSetMoreStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for outbox rows. Every winner must have its row committed before its 202, and one
 * transaction per winner caps the ingress at the database's commit rate. Instead, buy threads hand
 * their row to a few writer threads, which insert whatever has queued up in one transaction and
 * release every waiting buyer at once. Under light load a batch is one row and adds nothing; under a
 * storm batches grow with the queue. A failed batch is retried row by row, so one bad row fails alone.
 */
final class OutboxWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxWriter.class);
    private static final int MAX_BATCH = 256;
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(10);

    private final DSLContext dsl;
    private final IngressMetrics metrics;
    private final Duration relayGrace;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean running = true;

    OutboxWriter(DSLContext dsl, Duration relayGrace, int writerThreads, IngressMetrics metrics) {
        this.dsl = dsl;
        this.metrics = metrics;
        this.relayGrace = relayGrace;
        for (int i = 0; i < writerThreads; i++) {
            Thread writer = new Thread(this::drain, "outbox-writer-" + i);
            writer.setDaemon(true);
            writer.start();
            writers.add(writer);
        }
    }

    /** Returns once the order's row is committed. @throws RuntimeException when it is not */
    void write(OrderRequested order) {
        Pending pending = new Pending(row(order), new CompletableFuture<>());
        queue.add(pending);
        try {
            pending.done().get(WAIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("outbox write not committed within " + WAIT_LIMIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the outbox", e);
        }
    }

    private void drain() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch) {
        long started = System.nanoTime();
        try {
            // One multi-row INSERT: one round trip and one commit, atomic on its own.
            InsertSetMoreStep<OutboxRecord> insert = dsl.insertInto(OUTBOX).set(batch.get(0).row());
            for (int i = 1; i < batch.size(); i++) {
                insert = insert.newRecord().set(batch.get(i).row());
            }
            insert.execute();
            metrics.outboxCommitted(batch.size(), System.nanoTime() - started);
            batch.forEach(pending -> pending.done().complete(null));
        } catch (RuntimeException batchFailure) {
            if (batch.size() > 1) {
                LOG.warn("outbox batch of {} failed; writing its rows one by one", batch.size(), batchFailure);
            }
            for (Pending pending : batch) {
                try {
                    dsl.executeInsert(pending.row());
                    pending.done().complete(null);
                } catch (RuntimeException rowFailure) {
                    pending.done().completeExceptionally(rowFailure);
                }
            }
        }
    }

    private OutboxRecord row(OrderRequested order) {
        OutboxRecord row = new OutboxRecord();
        row.setId(order.orderId());
        row.setAggregatetype("order");
        row.setAggregateid(Long.toString(order.skuId()));
        row.setType("OrderRequested");
        row.setPayload(EventJson.encodeToString(order));
        row.setCreatedAt(utc(order.requestedAt()));
        row.setRelayAfter(utc(order.requestedAt().plus(relayGrace)));
        return row;
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public void close() {
        running = false;
        writers.forEach(Thread::interrupt);
        for (Pending left; (left = queue.poll()) != null; ) {
            left.done().completeExceptionally(new IllegalStateException("ingress stopping"));
        }
    }

    private record Pending(OutboxRecord row, CompletableFuture<Void> done) {
    }
}
