package io.seckill.reconciler.relay;

import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.UntilShortBatch;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-publishes lifecycle events whose row is still open when it comes due: the direct publish after the ending's commit
 * was lost, or the reconciler could not consume it yet. Claimed first ({@link RelayedRows#claimDue}, each send spaced
 * further from the last), sent after the claim committed, each claim settled by the broker's answer ({@link
 * RelaySends}). A re-send is a duplicate at worst: giving the units back to Redis happens once per order.
 */
public record LifecycleRelay(RelaySends sends, RelayBackoff backoff, int batchSize, Clock clock) {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleRelay.class);

    /** Relays every due event, batch by batch. @return events the broker acknowledged */
    int relayDue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<RelayedRows.Due> claimed = sends.rows().claimDue(sends.dsl(), clock.instant(), backoff, batchSize);
            return sends.send(
                            claimed,
                            row -> Topic.ORDER_LIFECYCLE.encodedRecord(
                                    row.key(), row.payload().getBytes(StandardCharsets.UTF_8)),
                            "lifecycle event(s)")
                    .acknowledgedOrFail();
        });
    }

    /** The lifecycle relay's job: re-sends the lifecycle events due. */
    public static Job job(ReconcilerParts parts, RelaySettings settings) {
        LifecycleRelay relay = new LifecycleRelay(RelaySends.of(parts, parts.tables().orderEvents(), settings),
                settings.backoff(), settings.batch(), parts.clock());
        return new Job("lifecycle relay", settings.interval(), () -> {
            int sent = relay.relayDue();
            if (sent > 0) {
                LOG.info("lifecycle relay re-sent {} event(s)", sent);
            }
        });
    }
}
