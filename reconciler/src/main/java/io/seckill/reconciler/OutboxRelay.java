package io.seckill.reconciler;

import io.seckill.mysqlstate.Outbox;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jooq.DSLContext;

/**
 * Re-publishes orders whose outbox row is still open when it comes due: the ingress's direct publish
 * was lost, or the order is stuck. Rows are claimed first ({@link Outbox#claimDue}, shared by several
 * relays, each send spaced further from the last) and sent after the claim committed, so no row lock
 * is held while Kafka is waited on. A re-send is a duplicate at worst; the stream-processor and the
 * sink absorb it. Rows sent {@code maxAttempts} times are left to {@link UndeliverableOrders}.
 */
record OutboxRelay(DSLContext dsl, Outbox outbox, Producer<String, byte[]> producer, Outbox.RelayBackoff backoff, int maxAttempts,
                   int batchSize, Clock clock) {

    /** Relays every due row, batch by batch. @return rows re-sent */
    int relayDue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<Outbox.DueRow> claimed = outbox.claimDue(dsl, clock.instant(), backoff, maxAttempts, batchSize);
            publish(claimed);
            return claimed.size();
        });
    }

    private void publish(List<Outbox.DueRow> due) {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (Outbox.DueRow row : due) {
            acks.add(producer.send(Topic.ORDER_REQUESTS.encodedRecord(row.skuId(), row.payload().getBytes(StandardCharsets.UTF_8))));
        }
        try {
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("re-sending " + due.size() + " order(s) failed; they come due again after their backoff", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted re-sending orders", e);
        }
    }
}
