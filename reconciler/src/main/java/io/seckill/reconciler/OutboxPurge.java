package io.seckill.reconciler;

import io.seckill.mysqlstate.RelayedRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jooq.DSLContext;

/**
 * Deletes the rows of both outboxes (orders, lifecycle events) completed longer ago than the retention,
 * in bounded batches so no delete holds locks for long. Open rows are never touched: they are orders
 * and events still in flight.
 */
record OutboxPurge(DSLContext dsl, RelayedRows outbox, RelayedRows orderEvents, Duration retention, int batchSize, Clock clock) {

    /** @return rows deleted */
    int purge() {
        Instant cutoff = clock.instant().minus(retention);
        return UntilShortBatch.run(batchSize, () -> outbox.purgeCompletedBefore(dsl, cutoff, batchSize))
                + UntilShortBatch.run(batchSize, () -> orderEvents.purgeCompletedBefore(dsl, cutoff, batchSize));
    }
}
