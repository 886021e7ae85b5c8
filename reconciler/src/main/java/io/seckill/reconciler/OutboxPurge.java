package io.seckill.reconciler;

import io.seckill.mysqlstate.Outbox;
import java.time.Clock;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Deletes outbox rows completed longer ago than the retention, in bounded batches so no delete holds
 * locks for long. Open rows are never touched: they are orders still in flight.
 */
record OutboxPurge(DSLContext dsl, Outbox outbox, Duration retention, int batchSize, Clock clock) {

    /** @return rows deleted */
    int purge() {
        return UntilShortBatch.run(batchSize, () -> outbox.purgeCompletedBefore(dsl, clock.instant().minus(retention), batchSize));
    }
}
