package io.seckill.reconciler;

import io.seckill.mysqlstate.OrderEndings;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.runtime.RelayedSend;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
import org.jooq.DSLContext;

/**
 * Expires confirmed orders not paid by their deadline, batch by batch ({@link OrderEndings#expireOverdue}:
 * the (status, pay_by) index gives only the due ones, each batch one short transaction), and publishes
 * each expiry at once so the reconciler gives its units back to Redis; a publish that is lost is the
 * relay's to repeat. Several reconcilers share the work: rows one of them holds are skipped by the others.
 */
record PaymentDeadlines(DSLContext dsl, OrderEndings endings, Producer<String, byte[]> producer, int batchSize, Clock clock,
                        ReconcilerMetrics metrics) {

    /** @return orders expired by this run */
    int expireOverdue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<OrderExpired> expired = endings.expireOverdue(dsl, clock.instant(), batchSize);
            expired.forEach(event -> RelayedSend.send(producer, Topic.ORDER_LIFECYCLE.record(event.orderId(), event),
                    "expiry of order " + event.orderId()));
            metrics.expired(expired.size());
            return expired.size();
        });
    }
}
