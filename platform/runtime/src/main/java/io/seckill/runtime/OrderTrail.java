package io.seckill.runtime;

import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.trace.TraceParent;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What lets one grep follow an order through the services. {@link #about} puts the order's id, SKU, buyer and trace
 * into the logging context (MDC keys {@code orderId}, {@code skuId}, {@code userId}, {@code traceId}, {@code spanId}),
 * so every line logged about it carries them: as fields of the JSON log ({@code SECKILL_LOG_FORMAT=json}), at the end
 * of the text log's lines. {@link #step} writes one line per order and stage on the logger {@value #LOGGER}, which is
 * off unless {@code SECKILL_ORDER_TRAIL_LEVEL=INFO}: a line per order at every stage is a cost a storm should not pay
 * unasked.
 */
public final class OrderTrail {

    public static final String LOGGER = "io.seckill.trail";
    private static final Logger TRAIL = LoggerFactory.getLogger(LOGGER);
    private static final String[] KEYS = {"orderId", "skuId", "userId", "traceId", "spanId"};

    private OrderTrail() {
    }

    /** The order in the logging context until closed. */
    public static Scope about(OrderFacts order, Optional<TraceParent> trace) {
        MDC.put("orderId", order.orderId());
        MDC.put("skuId", Long.toString(order.skuId()));
        MDC.put("userId", order.userId());
        trace.ifPresent(known -> {
            MDC.put("traceId", known.traceId());
            MDC.put("spanId", known.spanId());
        });
        return () -> {
            for (String key : KEYS) {
                MDC.remove(key);
            }
        };
    }

    /** One line on the trail: what {@code stage} did with the order. */
    public static void step(OrderFacts order, Optional<TraceParent> trace, String stage, String what) {
        if (!TRAIL.isInfoEnabled()) {
            return;
        }
        Scope scope = about(order, trace);
        try {
            TRAIL.info("{}: order {} {}", stage, order.orderId(), what);
        } finally {
            scope.close();
        }
    }

    /** Takes the order out of the logging context. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
