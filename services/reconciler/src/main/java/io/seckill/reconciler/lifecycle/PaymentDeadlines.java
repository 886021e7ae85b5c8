package io.seckill.reconciler.lifecycle;

import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Orders;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.UntilShortBatch;
import io.seckill.runtime.RelayedSend;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires confirmed orders not paid by their deadline, batch by batch ({@link OrderEndings#expireOverdue}:
 * the (status, pay_by) index gives only the due ones, each batch one short transaction), and publishes
 * each expiry at once so the reconciler gives its units back to Redis; a publish that is lost is the
 * relay's to repeat. Several reconcilers share the work: rows one of them holds are skipped by the others.
 */
public record PaymentDeadlines(
        DSLContext dsl,
        OrderEndings endings,
        Orders orders,
        Producer<String, byte[]> producer,
        int batchSize,
        Clock clock,
        ReconcilerMetrics metrics) {

    private static final Logger LOG = LoggerFactory.getLogger(PaymentDeadlines.class);

    /** @return orders expired by this run */
    int expireOverdue() {
        return UntilShortBatch.run(batchSize, () -> {
            List<OrderExpired> expired = endings.expireOverdue(dsl, clock.instant(), batchSize);
            // Each expiry continues its order's trace, as the relay's copy of it does.
            Map<String, String> traces = expired.isEmpty()
                    ? Map.of()
                    : orders.traces(
                            dsl, expired.stream().map(OrderExpired::orderId).toList());
            for (OrderExpired event : expired) {
                ProducerRecord<String, byte[]> record = Topic.ORDER_LIFECYCLE.record(event.orderId(), event);
                TraceParent.parse(traces.get(event.orderId()))
                        .ifPresent(trace -> TraceHeaders.put(record.headers(), trace));
                RelayedSend.send(producer, record, "expiry of order " + event.orderId());
            }
            metrics.expired(expired.size());
            return expired.size();
        });
    }

    /**
     * The job that expires confirmed orders past their payment deadline; each expiry's event is left to its direct
     * publish for {@code relayGrace} before the lifecycle relay sends it.
     */
    public static Job job(ReconcilerParts parts, LifecycleSettings settings, Duration relayGrace) {
        PaymentDeadlines deadlines = new PaymentDeadlines(parts.dsl(), new OrderEndings(relayGrace),
                parts.tables().orders(), parts.producer(), settings.expiryBatch(), parts.clock(), parts.metrics());
        return new Job("payment deadlines", settings.expiryInterval(), () -> {
            int expired = deadlines.expireOverdue();
            if (expired > 0) {
                LOG.info("expired {} order(s) not paid by their deadline", expired);
            }
        });
    }
}
