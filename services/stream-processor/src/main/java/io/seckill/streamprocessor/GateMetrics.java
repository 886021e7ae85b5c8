package io.seckill.streamprocessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the gate did with orders it had seen before: duplicates dropped (a producer retry, a copy
 * published twice), and relay re-sends let through all the same. Each is counted; one in
 * {@link #LOGGED_EVERY} of each is logged with its order id, so a burst cannot flood the log.
 */
final class GateMetrics {

    static final long LOGGED_EVERY = 100;
    private static final Logger LOG = LoggerFactory.getLogger(GateMetrics.class);

    private final Counter duplicatesDropped;
    private final Counter resendsPassed;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong passed = new AtomicLong();

    GateMetrics(MeterRegistry registry) {
        this.duplicatesDropped = Counter.builder("seckill.gate.duplicates.dropped")
                .description("orders the gate had seen within the de-duplication TTL, dropped").register(registry);
        this.resendsPassed = Counter.builder("seckill.gate.resends.passed")
                .description("relay re-sends of orders the gate had seen, let through to the sink").register(registry);
    }

    void duplicateDropped(String orderId) {
        duplicatesDropped.increment();
        long count = dropped.incrementAndGet();
        if (count % LOGGED_EVERY == 1) {
            LOG.info(
                    "duplicate of order {} dropped ({} duplicate(s) dropped so far; one in {} is logged)",
                    orderId,
                    count,
                    LOGGED_EVERY);
        }
    }

    void resendPassed(String orderId) {
        resendsPassed.increment();
        long count = passed.incrementAndGet();
        if (count % LOGGED_EVERY == 1) {
            LOG.info(
                    "order {} sent again by the relay: let through although seen, for the sink to decide ({} so far;"
                            + " one in {} is logged)",
                    orderId,
                    count,
                    LOGGED_EVERY);
        }
    }
}
