package io.seckill.reconciler;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.impl.DSL;

/**
 * Re-publishes orders whose outbox row is still open after the grace period: the ingress's direct
 * publish was lost, or the order is stuck. Rows are claimed with FOR UPDATE SKIP LOCKED, so several
 * relays share the work, and chosen by due time, never by an id cursor (ids commit out of order).
 * A re-send is a duplicate at worst; the stream-processor and the sink absorb it.
 */
final class OutboxRelay {

    private final DSLContext dsl;
    private final Producer<String, byte[]> producer;
    private final Duration grace;
    private final int batchSize;
    private final Clock clock;

    OutboxRelay(DSLContext dsl, Producer<String, byte[]> producer, Duration grace, int batchSize, Clock clock) {
        this.dsl = dsl;
        this.producer = producer;
        this.grace = grace;
        this.batchSize = batchSize;
        this.clock = clock;
    }

    /** Relays every due row, batch by batch. @return rows re-sent */
    int relayDue() {
        int total = 0;
        int sent;
        do {
            sent = relayOneBatch();
            total += sent;
        } while (sent == batchSize);
        return total;
    }

    private int relayOneBatch() {
        return dsl.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            LocalDateTime now = LocalDateTime.now(clock.withZone(ZoneOffset.UTC));
            Result<Record3<String, String, String>> due = tx.select(OUTBOX.ID, OUTBOX.AGGREGATEID, OUTBOX.PAYLOAD)
                    .from(OUTBOX)
                    .where(OUTBOX.COMPLETED_AT.isNull())
                    .and(OUTBOX.RELAY_AFTER.le(now))
                    .orderBy(OUTBOX.RELAY_AFTER)
                    .limit(batchSize)
                    .forUpdate().skipLocked()
                    .fetch();
            if (due.isEmpty()) {
                return 0;
            }
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (Record3<String, String, String> row : due) {
                acks.add(producer.send(new ProducerRecord<>(Topic.ORDER_REQUESTS.topicName(), row.value2(),
                        row.value3().getBytes(StandardCharsets.UTF_8))));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
            tx.update(OUTBOX)
                    .set(OUTBOX.RELAY_AFTER, now.plus(grace))
                    .set(OUTBOX.RELAY_ATTEMPTS, OUTBOX.RELAY_ATTEMPTS.plus(1))
                    .where(OUTBOX.ID.in(due.getValues(OUTBOX.ID)))
                    .execute();
            return due.size();
        });
    }
}
