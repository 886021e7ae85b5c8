package io.seckill.reconciler.lifecycle;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.OrderTrail;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.trace.TraceHeaders;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes the lifecycle topic: a cancelled or expired order's units go back to MySQL ({@link ReturnedUnits}), then to
 * Redis. An event counts only when the order's row shows it ended that way (same facts, that status); any other is
 * refused ({@link UnsupportedRecords}) and completes no row. Its units go back to each once per order (the stock and
 * the buyer's purchases, the buyer's slot in Redis), and every consumed event's row is completed. A sale Redis does not
 * hold right now (being rebuilt from MySQL, which counts the units already) leaves its event open: the relay brings it
 * again, and the rebuild marks it returned if it saw it.
 */
public final class StockReturns {

    private static final Logger LOG = LoggerFactory.getLogger(StockReturns.class);

    private final DSLContext dsl;
    private final Orders orders;
    private final ReturnedUnits returnedUnits;
    private final RelayedRows events;
    private final SaleStore saleStore;
    private final UnsupportedRecords unsupported;
    private final Clock clock;
    private final ReconcilerMetrics metrics;

    public StockReturns(
            DSLContext dsl,
            Orders orders,
            ReturnedUnits returnedUnits,
            RelayedRows events,
            SaleStore saleStore,
            UnsupportedRecords unsupported,
            Clock clock,
            ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.orders = orders;
        this.returnedUnits = returnedUnits;
        this.events = events;
        this.saleStore = saleStore;
        this.unsupported = unsupported;
        this.clock = clock;
        this.metrics = metrics;
    }

    public void onEvents(List<Delivery<OrderLifecycleEvent>> deliveries)
            throws ExecutionException, InterruptedException {
        Map<String, Orders.Stored> stored = orders.stored(
                dsl,
                deliveries.stream().map(delivery -> delivery.value().orderId()).toList());
        List<Delivery<OrderLifecycleEvent>> verified = new ArrayList<>();
        for (Delivery<OrderLifecycleEvent> delivery : deliveries) {
            OrderLifecycleEvent event = delivery.value();
            Orders.Stored truth = stored.get(event.orderId());
            if (truth == null) {
                unsupported.refuse(
                        delivery.record(),
                        UnsupportedRecords.Reason.NO_ORDER_ROW,
                        "order " + event.orderId() + " was never decided");
            } else if (!truth.order().equals(OrderFacts.of(event)) || truth.status() != event.status()) {
                unsupported.refuse(
                        delivery.record(),
                        UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW,
                        "order " + event.orderId() + " is " + truth.status() + " for " + truth.order() + ", not "
                                + event.status() + " for " + OrderFacts.of(event));
            } else {
                verified.add(delivery);
            }
        }
        // MySQL first: Redis is given only units MySQL holds again.
        returnedUnits.restore(dsl, verified.stream().map(Delivery::value).filter(OrderLifecycleEvent::returnsStock)
                .map(OrderLifecycleEvent::orderId).toList(), clock.instant());
        List<String> consumed = new ArrayList<>();
        for (Delivery<OrderLifecycleEvent> delivery : verified) {
            OrderLifecycleEvent event = delivery.value();
            // Its lines (the return's, the trail's) carry the order and the trace its event continues.
            OrderTrail.Scope scope = OrderTrail.about(
                    OrderFacts.of(event), TraceHeaders.of(delivery.record().headers()));
            try {
                if (!event.returnsStock() || returned(event)) {
                    consumed.add(event.orderId());
                    OrderTrail.step(OrderFacts.of(event), TraceHeaders.of(delivery.record().headers()), "reconciler",
                            event.status() + (event.returnsStock() ? ", its units back in MySQL and Redis" : ""));
                }
            } finally {
                scope.close();
            }
        }
        if (!consumed.isEmpty()) {
            events.complete(dsl, consumed, clock.instant());
        }
    }

    private boolean returned(OrderLifecycleEvent event) {
        return switch (saleStore.returnUnits(event.skuId(), event.orderId(), event.userId(), event.quantity())) {
            case RETURNED -> {
                metrics.stockReturned(event.quantity());
                LOG.info(
                        "returned {} unit(s) of SKU {} from {} order {}",
                        event.quantity(),
                        event.skuId(),
                        event.status(),
                        event.orderId());
                yield true;
            }
            case ALREADY -> true;
            case NOT_LOADED -> {
                LOG.info(
                        "SKU {} is not loaded in Redis; {} order {} is returned when its event comes again",
                        event.skuId(),
                        event.status(),
                        event.orderId());
                yield false;
            }
        };
    }

    /** The give-back of cancelled and expired orders' units, on the reconciler's parts. */
    public static StockReturns of(ReconcilerParts parts) {
        return new StockReturns(
                parts.dsl(),
                parts.tables().orders(),
                parts.tables().returnedUnits(),
                parts.tables().orderEvents(),
                parts.saleStore(),
                parts.unsupported(),
                parts.clock(),
                parts.metrics());
    }
}
