package io.seckill.reconciler;

import io.seckill.mysqlstate.RelayedRows;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.schemas.events.OrderLifecycleEvent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes the lifecycle topic: a cancelled or expired order's units, which MySQL took back when it
 * ended, go back to Redis (the stock and the buyer's slot) once per order, and every consumed event's row
 * is completed. A sale Redis does not hold right now (being rebuilt from MySQL, which counts the units
 * already) leaves its event open: the relay brings it again, and the rebuild marks it returned if it saw it.
 */
final class StockReturns {

    private static final Logger LOG = LoggerFactory.getLogger(StockReturns.class);

    private final DSLContext dsl;
    private final RelayedRows events;
    private final SaleStore saleStore;
    private final Clock clock;
    private final ReconcilerMetrics metrics;

    StockReturns(DSLContext dsl, RelayedRows events, SaleStore saleStore, Clock clock, ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.events = events;
        this.saleStore = saleStore;
        this.clock = clock;
        this.metrics = metrics;
    }

    void onEvents(List<Delivery<OrderLifecycleEvent>> deliveries) {
        List<String> consumed = new ArrayList<>();
        for (Delivery<OrderLifecycleEvent> delivery : deliveries) {
            OrderLifecycleEvent event = delivery.value();
            if (!event.returnsStock() || returned(event)) {
                consumed.add(event.orderId());
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
                LOG.info("returned {} unit(s) of SKU {} from {} order {}", event.quantity(), event.skuId(), event.status(), event.orderId());
                yield true;
            }
            case ALREADY -> true;
            case NOT_LOADED -> {
                LOG.info("SKU {} is not loaded in Redis; {} order {} is returned when its event comes again", event.skuId(), event.status(),
                        event.orderId());
                yield false;
            }
        };
    }
}
