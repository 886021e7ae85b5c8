package io.seckill.reconciler;

import io.seckill.mysqlstate.Outbox;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jooq.DSLContext;

/**
 * Re-publishes orders whose outbox row is still open after the grace period: the ingress's direct
 * publish was lost, or the order is stuck. Several relays share the work ({@link Outbox#relayDue}).
 * A re-send is a duplicate at worst; the stream-processor and the sink absorb it.
 */
record OutboxRelay(DSLContext dsl, Outbox outbox, Producer<String, byte[]> producer, Duration grace, int batchSize, Clock clock) {

    /** Relays every due row, batch by batch. @return rows re-sent */
    int relayDue() {
        return UntilShortBatch.run(batchSize, () -> outbox.relayDue(dsl, clock.instant(), grace, batchSize, this::publish));
    }

    private void publish(List<Outbox.DueRow> due) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (Outbox.DueRow row : due) {
            acks.add(producer.send(Topic.ORDER_REQUESTS.encodedRecord(row.skuId(), row.payload().getBytes(StandardCharsets.UTF_8))));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
    }
}
