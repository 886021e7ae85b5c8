package io.seckill.reconciler;

import io.seckill.mysqlstate.Outbox;
import java.time.Clock;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Deletes outbox rows completed longer ago than the retention, in bounded batches so no delete holds
 * locks for long. Open rows are never touched: they are orders still in flight.
 */
final class OutboxPurge {

    private final DSLContext dsl;
    private final Outbox outbox;
    private final Duration retention;
    private final int batchSize;
    private final Clock clock;

    OutboxPurge(DSLContext dsl, Outbox outbox, Duration retention, int batchSize, Clock clock) {
        this.dsl = dsl;
        this.outbox = outbox;
        this.retention = retention;
        this.batchSize = batchSize;
        this.clock = clock;
    }

    /** @return rows deleted */
    int purge() {
        return UntilShortBatch.run(batchSize, () -> outbox.purgeCompletedBefore(dsl, clock.instant().minus(retention), batchSize));
    }
}
