package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.runtime.BatchQueue;
import io.seckill.runtime.OrderStatusStore;
import io.seckill.runtime.OrderView;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for outbox rows ({@link BatchQueue}). Every winner must have its row committed before
 * its 202, and one transaction per winner caps the ingress at the database's commit rate; instead a
 * batch of rows is one INSERT and one commit. A failed batch is retried row by row, so one bad row
 * fails alone. The batch's PENDING statuses go to Redis first, in one round trip, for the same reason.
 */
final class OutboxWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxWriter.class);
    private static final int MAX_BATCH = 256;
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(10);
    private static final String AGGREGATE_TYPE = "order";
    private static final String EVENT_TYPE = "OrderRequested";
    private static final List<Field<?>> COLUMNS = List.of(OUTBOX.ID, OUTBOX.AGGREGATETYPE, OUTBOX.AGGREGATEID, OUTBOX.TYPE,
            OUTBOX.PAYLOAD, OUTBOX.CREATED_AT, OUTBOX.RELAY_AFTER);

    private final DSLContext dsl;
    private final OrderStatusStore statuses;
    private final IngressMetrics metrics;
    private final Duration relayGrace;
    private final Map<Integer, String> insertSql = new ConcurrentHashMap<>();
    private final BatchQueue<Pending> writers;

    OutboxWriter(DSLContext dsl, OrderStatusStore statuses, Duration relayGrace, int writerThreads, IngressMetrics metrics) {
        this.dsl = dsl;
        this.statuses = statuses;
        this.metrics = metrics;
        this.relayGrace = relayGrace;
        this.writers = new BatchQueue<>("outbox-writer", writerThreads, MAX_BATCH, this::commit, IllegalStateException::new);
    }

    /**
     * Returns once the order's PENDING status is in Redis and its row is committed.
     * @throws RuntimeException when either is not (the status may then exist without the row)
     */
    void write(OrderRequested order, String payload) {
        Pending pending = new Pending(row(order, payload), new OrderView(order.orderId(), order.skuId(), order.userId(), order.quantity(),
                OrderStatus.PENDING.name(), null), new CompletableFuture<>());
        writers.submit(List.of(pending));
        writers.await(pending.result(), WAIT_LIMIT);
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

    /**
     * One multi-row INSERT: one round trip and one commit, atomic on its own. Bound over plain JDBC
     * because this is the storm's one serial step: building the same statement through jOOQ's query
     * model cost ~25 us per row of this thread's time (measured), more than the database's own work.
     */
    private void insert(List<Pending> rows) {
        dsl.connection(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(rows.size()))) {
                int column = 1;
                for (Pending pending : rows) {
                    OutboxRow row = pending.row();
                    insert.setString(column++, row.id());
                    insert.setString(column++, AGGREGATE_TYPE);
                    insert.setString(column++, row.aggregateId());
                    insert.setString(column++, EVENT_TYPE);
                    insert.setString(column++, row.payload());
                    insert.setObject(column++, row.createdAt());
                    insert.setObject(column++, row.relayAfter());
                }
                insert.executeUpdate();
            }
        });
    }

    private String insertSql(int rows) {
        return insertSql.computeIfAbsent(rows, count -> "INSERT INTO " + OUTBOX.getName() + " ("
                + COLUMNS.stream().map(Field::getName).collect(Collectors.joining(", ")) + ") VALUES "
                + String.join(", ", Collections.nCopies(count, "(" + String.join(", ", Collections.nCopies(COLUMNS.size(), "?")) + ")")));
    }

    private OutboxRow row(OrderRequested order, String payload) {
        return new OutboxRow(order.orderId(), Long.toString(order.skuId()), payload,
                utc(order.requestedAt()), utc(order.requestedAt().plus(relayGrace)));
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public void close() {
        writers.close();
    }

    private record OutboxRow(String id, String aggregateId, String payload, LocalDateTime createdAt, LocalDateTime relayAfter) {
    }

    private record Pending(OutboxRow row, OrderView status, CompletableFuture<Void> result) implements BatchQueue.Job {
    }
}
