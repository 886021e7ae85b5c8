package io.seckill.reconciler;

import io.seckill.mysqlstate.RelayedRows;
import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
import org.jooq.DSLContext;

/**
 * Re-publishes lifecycle events whose row is still open when it comes due: the direct publish after the
 * ending's commit was lost, or the reconciler could not consume it yet. Claimed first
 * ({@link RelayedRows#claimDue}, each send spaced further from the last), sent after the claim committed.
 * A re-send is a duplicate at worst: giving the units back to Redis happens once per order.
 */
record LifecycleRelay(DSLContext dsl, RelayedRows events, Producer<String, byte[]> producer, RelayBackoff backoff, int batchSize,
                      Clock clock) {

    /** Relays every due event, batch by batch. @return events re-sent */
    int relayDue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<RelayedRows.Due> claimed = events.claimDue(dsl, clock.instant(), backoff, batchSize);
            KafkaSends.sendAll(producer, claimed.stream()
                    .map(row -> Topic.ORDER_LIFECYCLE.encodedRecord(row.key(), row.payload().getBytes(StandardCharsets.UTF_8)))
                    .toList(), "lifecycle event(s)");
            return claimed.size();
        });
    }
}
