package io.seckill.dbsink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code seckill.orders.decided{status, reason}}: results the sink published, by outcome. A replayed
 * batch publishes its results again, so under redelivery the count can exceed the orders decided.
 */
final class DecisionCounters {

    private final Counter confirmed;
    private final Map<RejectReason, Counter> rejected = new EnumMap<>(RejectReason.class);

    DecisionCounters(MeterRegistry meters) {
        this.confirmed = counter(meters, OrderStatus.CONFIRMED, "none");
        for (RejectReason reason : RejectReason.values()) {
            rejected.put(reason, counter(meters, OrderStatus.REJECTED, reason.name()));
        }
    }

    private static Counter counter(MeterRegistry meters, OrderStatus status, String reason) {
        return Counter.builder("seckill.orders.decided").description("order results published by the db-sink")
                .tag("status", status.name()).tag("reason", reason).register(meters);
    }

    void published(OrderResult result) {
        switch (result.status()) {
            case CONFIRMED -> confirmed.increment();
            case REJECTED -> rejected.get(result.reason()).increment();
            case PENDING, PAID, CANCELLED, EXPIRED -> throw new IllegalArgumentException(
                    "the sink publishes decisions only, not " + result.status() + ": " + result.orderId());
        }
    }
}
