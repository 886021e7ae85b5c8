package io.seckill.reconciler.relay;

import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.UntilShortBatch;
import io.seckill.schemas.kafka.RelayHeaders;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-publishes orders whose outbox row is still open when it comes due: the ingress's direct publish
 * was lost, or the order is stuck. Rows are claimed first ({@link RelayedRows#claimDue}, shared by several
 * relays, each send spaced further from the last) and sent after the claim committed, so no row lock
 * is held while Kafka is waited on. A re-send is marked as one ({@link RelayHeaders}): the gate lets it
 * through to the sink, which absorbs a duplicate. {@link RelaySends} settles each claim by the broker's
 * answer; rows the broker refused {@code maxAttempts} times, never acknowledging one, are left to
 * {@link UndeliverableOrders}.
 */
public record OutboxRelay(
        RelaySends sends,
        RelayBackoff backoff,
        int maxAttempts,
        int batchSize,
        Clock clock,
        ReconcilerMetrics metrics) {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

    /**
     * Relays every due row, batch by batch, counting the rows claimed and, apart, those the broker acknowledged.
     * @return rows acknowledged
     */
    int relayDue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<RelayedRows.Due> claimed =
                    sends.rows().claimDue(sends.dsl(), clock.instant(), backoff, maxAttempts, batchSize);
            metrics.relayClaimed(claimed.size());
            RelaySends.Answered answered = sends.send(claimed, OutboxRelay::resent, "order(s)");
            metrics.relayAcknowledged(answered.acknowledged());
            return answered.acknowledgedOrFail();
        });
    }

    /** The order's record, marked as the relay's: the gate lets it through even if it saw the order before. */
    private static ProducerRecord<String, byte[]> resent(RelayedRows.Due row) {
        ProducerRecord<String, byte[]> record = Topic.ORDER_REQUESTS.encodedRecord(Long.parseLong(row.key()),
                row.payload().getBytes(StandardCharsets.UTF_8));
        RelayHeaders.markResent(record.headers(), row.attempts());
        return record;
    }

    /** The outbox relay's job: re-sends the orders due, then gives up on those the broker refused every time. */
    public static Job job(ReconcilerParts parts, RelaySettings settings) {
        OutboxRelay relay = new OutboxRelay(RelaySends.of(parts, parts.tables().outbox(), settings), settings.backoff(),
                settings.maxAttempts(), settings.batch(), parts.clock(), parts.metrics());
        UndeliverableOrders undeliverable = new UndeliverableOrders(
                parts.dsl(),
                parts.tables().outbox(),
                parts.tables().orders(),
                parts.saleStore(),
                parts.statuses(),
                settings.maxAttempts(),
                settings.batch(),
                parts.clock(),
                parts.metrics());
        return new Job("outbox relay", settings.interval(), () -> {
            int sent = relay.relayDue();
            if (sent > 0) {
                LOG.info("outbox relay re-sent {} order(s)", sent);
            }
            undeliverable.giveUp();
        });
    }
}
