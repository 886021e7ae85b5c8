package io.seckill.reconciler;

import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.StockCompensation;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes Redis reservations once the database has spoken, and tells polling buyers (order status). A
 * confirmed order's ledger entry is settled (the units stay sold); a compensated order's units and the
 * buyer's slot go back. Both are guarded by the ledger inside Lua, so a redelivered event changes nothing.
 * Both are refused while the order's sale is being rebuilt in Redis; the batch then fails and is run again.
 */
final class ReservationSettler {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationSettler.class);

    private final SaleStore saleStore;
    private final OrderStatusStore statuses;
    private final ReconcilerMetrics metrics;

    ReservationSettler(SaleStore saleStore, OrderStatusStore statuses, ReconcilerMetrics metrics) {
        this.saleStore = saleStore;
        this.statuses = statuses;
        this.metrics = metrics;
    }

    /** A batch of results is settled in two round trips (ledger, then statuses), not two per result. */
    void onResults(List<Delivery<OrderResult>> deliveries) {
        List<OrderResult> results = deliveries.stream().map(Delivery::value).toList();
        int refused = saleStore.confirmAll(results.stream().filter(result -> result.status() == OrderStatus.CONFIRMED).toList());
        statuses.putAll(results.stream()
                .map(result -> new OrderView(result.orderId(), result.skuId(), result.userId(), result.quantity(),
                        result.status(), result.reason()))
                .toList());
        if (refused > 0) {
            throw new SaleBeingRebuilt(refused + " confirmation(s)");
        }
    }

    void onCompensations(List<Delivery<StockCompensation>> deliveries) {
        for (Delivery<StockCompensation> delivery : deliveries) {
            StockCompensation compensation = delivery.value();
            long released = saleStore.release(compensation.skuId(), compensation.orderId());
            if (released == SaleStore.NOT_LOADED) {
                throw new SaleBeingRebuilt("the release of order " + compensation.orderId());
            }
            if (released > 0) {
                metrics.compensationApplied();
                LOG.info("released {} unit(s) of SKU {} for rejected order {} ({})", released,
                        compensation.skuId(), compensation.orderId(), compensation.reason());
            }
        }
    }

    /**
     * A settlement refused while its sale is rebuilt: the consumer loop runs the batch again shortly, when the sale is
     * open (what the batch settled already is settled once, by the ledger).
     */
    private static final class SaleBeingRebuilt extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        SaleBeingRebuilt(String what) {
            super(what + " refused while the sale is rebuilt; the batch is settled again shortly");
        }
    }
}
