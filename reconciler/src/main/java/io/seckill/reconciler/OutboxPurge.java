package io.seckill.reconciler;

import io.seckill.mysqlstate.RelayedRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the rows of both outboxes (orders, lifecycle events) completed longer ago than the retention,
 * in bounded batches so no delete holds locks for long. Open rows are never touched: they are orders
 * and events still in flight.
 */
record OutboxPurge(DSLContext dsl, RelayedRows outbox, RelayedRows orderEvents, Duration retention, int batchSize, Clock clock) {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxPurge.class);

    /** @return rows deleted */
    int purge() {
        Instant cutoff = clock.instant().minus(retention);
        return UntilShortBatch.run(batchSize, () -> outbox.purgeCompletedBefore(dsl, cutoff, batchSize))
                + UntilShortBatch.run(batchSize, () -> orderEvents.purgeCompletedBefore(dsl, cutoff, batchSize));
    }

    /** The job that deletes completed outbox and lifecycle rows past their retention. */
    static Job job(ReconcilerParts parts) {
        ReconcilerConfig config = parts.config();
        OutboxPurge purge = new OutboxPurge(parts.dsl(), parts.tables().outbox(), parts.tables().orderEvents(), config.outboxRetention(),
                config.relayBatch(), parts.clock());
        return new Job("outbox purge", config.outboxPurgeInterval(), () -> {
            int deleted = purge.purge();
            if (deleted > 0) {
                LOG.info("outbox purge deleted {} completed row(s) older than {}", deleted, config.outboxRetention());
            }
        });
    }
}
