package io.seckill.reconciler.relay;

import io.seckill.mysqlstate.RelayedRows;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.UntilShortBatch;
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
public record OutboxPurge(
        DSLContext dsl, RelayedRows outbox, RelayedRows orderEvents, Duration retention, int batchSize, Clock clock) {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxPurge.class);

    /** @return rows deleted */
    int purge() {
        Instant cutoff = clock.instant().minus(retention);
        return UntilShortBatch.run(batchSize, () -> outbox.purgeCompletedBefore(dsl, cutoff, batchSize))
                + UntilShortBatch.run(batchSize, () -> orderEvents.purgeCompletedBefore(dsl, cutoff, batchSize));
    }

    /** The job that deletes completed outbox and lifecycle rows past their retention. */
    public static Job job(ReconcilerParts parts, RelaySettings settings) {
        OutboxPurge purge = new OutboxPurge(parts.dsl(), parts.tables().outbox(), parts.tables().orderEvents(),
                settings.outboxRetention(), settings.batch(), parts.clock());
        return new Job("outbox purge", settings.purgeInterval(), () -> {
            int deleted = purge.purge();
            if (deleted > 0) {
                LOG.info("outbox purge deleted {} completed row(s) older than {}", deleted, settings.outboxRetention());
            }
        });
    }
}
