package io.seckill.reconciler.settle;

import io.seckill.mysqlstate.Orders;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.OrderTrail;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.trace.TraceHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes Redis reservations once the database has spoken, and tells polling buyers (order status). Only what the
 * database did say counts: each result or compensation is checked against the order's row first, and one that
 * disagrees with it (or names an order never decided) is refused ({@link UnsupportedRecords}). A
 * confirmed order's ledger entry is settled (the units stay sold); a compensated order's units and the
 * buyer's slot go back. Both are guarded by the ledger inside Lua, so a redelivered event changes nothing.
 * Both are refused while the order's sale is being rebuilt in Redis; the batch then fails and is run again.
 */
public final class ReservationSettler {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationSettler.class);
    private static final String STAGE = "reconciler";

    private final DSLContext dsl;
    private final Orders orders;
    private final SaleStore saleStore;
    private final OrderStatusStore statuses;
    private final UnsupportedRecords unsupported;
    private final ReconcilerMetrics metrics;

    ReservationSettler(
            DSLContext dsl,
            Orders orders,
            SaleStore saleStore,
            OrderStatusStore statuses,
            UnsupportedRecords unsupported,
            ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.orders = orders;
        this.saleStore = saleStore;
        this.statuses = statuses;
        this.unsupported = unsupported;
        this.metrics = metrics;
    }

    /**
     * A batch of results is checked in one query and settled in two round trips (ledger, then statuses), not per
     * result.
     */
    public void onResults(List<Delivery<OrderResult>> deliveries) throws ExecutionException, InterruptedException {
        List<Delivery<OrderResult>> supported =
                supported(deliveries, OrderFacts::of, OrderResult::status, OrderResult::reason);
        List<OrderResult> results = supported.stream().map(Delivery::value).toList();
        int refused = saleStore.confirmAll(results.stream()
                .filter(result -> result.status() == OrderStatus.CONFIRMED)
                .toList());
        statuses.putAll(results.stream()
                .map(result -> new OrderView(OrderFacts.of(result), result.status(), result.reason()))
                .toList());
        if (refused > 0) {
            throw new SaleBeingRebuilt(refused + " confirmation(s)");
        }
        for (Delivery<OrderResult> result : supported) {
            OrderTrail.step(OrderFacts.of(result.value()), TraceHeaders.of(result.record().headers()), STAGE,
                    "settled in Redis as " + result.value().status());
        }
    }

    public void onCompensations(List<Delivery<StockCompensation>> deliveries)
            throws ExecutionException, InterruptedException {
        for (Delivery<StockCompensation> delivery :
                supported(deliveries, OrderFacts::of, rejected -> OrderStatus.REJECTED, StockCompensation::reason)) {
            StockCompensation compensation = delivery.value();
            long released = saleStore.release(compensation.skuId(), compensation.orderId(), compensation.userId());
            if (released == SaleStore.NOT_LOADED) {
                throw new SaleBeingRebuilt("the release of order " + compensation.orderId());
            }
            if (released > 0) {
                metrics.compensationApplied();
                OrderTrail.Scope scope = OrderTrail.about(
                        OrderFacts.of(compensation),
                        TraceHeaders.of(delivery.record().headers()));
                try {
                    LOG.info("released {} unit(s) of SKU {} for rejected order {} ({})", released,
                            compensation.skuId(), compensation.orderId(), compensation.reason());
                } finally {
                    scope.close();
                }
            }
        }
    }

    /**
     * The records whose decision MySQL holds as they state it (same order facts, status and reason); the others are
     * refused, whoever wrote them: only the database decides an order.
     */
    private <V> List<Delivery<V>> supported(
            List<Delivery<V>> deliveries,
            Function<V, OrderFacts> facts,
            Function<V, OrderStatus> status,
            Function<V, RejectReason> reason)
            throws ExecutionException, InterruptedException {
        Map<String, OrderResult> decided = orders.decided(
                dsl,
                deliveries.stream()
                        .map(delivery -> facts.apply(delivery.value()).orderId())
                        .toList());
        List<Delivery<V>> supported = new ArrayList<>();
        for (Delivery<V> delivery : deliveries) {
            OrderFacts stated = facts.apply(delivery.value());
            OrderResult truth = decided.get(stated.orderId());
            if (truth == null) {
                unsupported.refuse(
                        delivery.record(),
                        UnsupportedRecords.Reason.NO_ORDER_ROW,
                        "order " + stated.orderId() + " was never decided");
            } else if (!OrderFacts.of(truth).equals(stated) || truth.status() != status.apply(delivery.value())
                    || truth.reason() != reason.apply(delivery.value())) {
                unsupported.refuse(
                        delivery.record(),
                        UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW,
                        "order " + stated.orderId() + " was decided " + truth.status()
                                + (truth.reason() == null ? "" : " (" + truth.reason() + ")") + " for "
                                + OrderFacts.of(truth));
            } else {
                supported.add(delivery);
            }
        }
        return supported;
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

    /** The settlement of the sink's results and compensations, on the reconciler's parts. */
    public static ReservationSettler of(ReconcilerParts parts) {
        return new ReservationSettler(parts.dsl(), parts.tables().orders(), parts.saleStore(), parts.statuses(),
                parts.unsupported(), parts.metrics());
    }
}
