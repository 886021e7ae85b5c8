package io.seckill.reconciler.repair;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.OrderTrail;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles reservations that stayed in a Redis ledger longer than {@code after}, each once, by what
 * MySQL knows of its order:
 * <ul>
 *   <li>decided: confirmed or released as decided (the result or compensation never settled it);</li>
 *   <li>recorded and open: left alone, the relay and the pipeline decide it;</li>
 *   <li>recorded and closed without a decision (dead-lettered), or fenced: released;</li>
 *   <li>no row at all (the ingress died between reserve and insert, or its insert failed and the
 *       release was lost): fenced first ({@link Outbox#voidUnrecorded}), so an insert still on its way
 *       fails instead of recording an order whose stock went back, then released.</li>
 * </ul>
 *
 * Every release and confirm is guarded by the ledger inside Lua: two sweeps, or a sweep and a late result, settle an
 * order once.
 */
public final class LeakedReservationSweep {

    private static final Logger LOG = LoggerFactory.getLogger(LeakedReservationSweep.class);
    private static final int SLICE = 1_000;

    private final DSLContext dsl;
    private final Skus skus;
    private final Orders orders;
    private final Outbox outbox;
    private final OutboxLookups rows;
    private final SaleStore saleStore;
    private final OrderStatusStore statuses;
    private final Duration after;
    private final Clock clock;
    private final ReconcilerMetrics metrics;

    LeakedReservationSweep(
            DSLContext dsl,
            Skus skus,
            Orders orders,
            Outbox outbox,
            OutboxLookups rows,
            SaleStore saleStore,
            OrderStatusStore statuses,
            Duration after,
            Clock clock,
            ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.skus = skus;
        this.orders = orders;
        this.outbox = outbox;
        this.rows = rows;
        this.saleStore = saleStore;
        this.statuses = statuses;
        this.after = after;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** @return reservations settled by this run */
    int sweep() {
        Instant now = clock.instant();
        long cutoff = now.minus(after).toEpochMilli();
        int settled = 0;
        for (long skuId : skus.stocks(dsl).keySet()) {
            List<SaleStore.Held> held = saleStore.heldSince(skuId, cutoff);
            // In slices: while the broker is away, every undecided order of a big sale is held past the cutoff on each
            // run.
            for (int from = 0; from < held.size(); from += SLICE) {
                settled += settle(held.subList(from, Math.min(held.size(), from + SLICE)), now);
            }
        }
        return settled;
    }

    private int settle(List<SaleStore.Held> reservations, Instant now) {
        List<OrderFacts> held = reservations.stream().map(SaleStore.Held::order).toList();
        List<String> ids = held.stream().map(OrderFacts::orderId).toList();
        // Rows first: the sink decides an order and completes its row in one commit, so a row read completed has its
        // decision visible to the read after it. The other way round, a commit between the reads shows a sold order as
        // undecided with its row completed, the look of a dead-lettered one, and its units would go back on sale.
        Map<String, OutboxLookups.RowState> rowStates = rows.states(dsl, ids);
        Map<String, OrderResult> decided = orders.decided(dsl, ids);
        List<OrderFacts> unrecorded = held.stream()
                .filter(order -> !decided.containsKey(order.orderId()) && !rowStates.containsKey(order.orderId()))
                .toList();
        Set<String> voided = new HashSet<>(outbox.voidUnrecorded(dsl, unrecorded, now));

        int settled = 0;
        List<OrderResult> confirmed = new ArrayList<>();
        for (SaleStore.Held reservation : reservations) {
            String orderId = reservation.order().orderId();
            OrderResult decision = decided.get(orderId);
            switch (settlementOf(decision, rowStates.get(orderId), voided.contains(orderId))) {
                case CONFIRM -> confirmed.add(decision);
                case RELEASE_DECIDED -> settled += release(reservation, false);
                case RELEASE_UNRECORDED -> settled += release(reservation, true);
                case LEAVE -> { }
            }
        }
        if (!confirmed.isEmpty()) {
            // Those refused (their sale being rebuilt) are seen again by the next run.
            int done = confirmed.size() - saleStore.confirmAll(confirmed);
            metrics.reservationsSwept("confirmed", done);
            LOG.warn("confirmed {} reservation(s) whose orders MySQL confirmed but Redis never settled", done);
            settled += done;
        }
        return settled;
    }

    private enum Settlement { CONFIRM, RELEASE_DECIDED, RELEASE_UNRECORDED, LEAVE }

    /**
     * @param row the order's outbox row as read before fencing (null: none)
     * @param fenced whether a fence holds its id now
     */
    private static Settlement settlementOf(OrderResult decision, OutboxLookups.RowState row, boolean fenced) {
        if (decision != null) {
            return switch (decision.status()) {
                // An order that ended after its confirmation gives its units back through the lifecycle, not the
                // ledger.
                case CONFIRMED, PAID, CANCELLED, EXPIRED -> Settlement.CONFIRM;
                case REJECTED -> Settlement.RELEASE_DECIDED;
                case PENDING -> Settlement.LEAVE;
            };
        }
        if (row == null) {
            // Not fenced: the order's own row went in between the read and the fence; the next run sees it open.
            return fenced ? Settlement.RELEASE_UNRECORDED : Settlement.LEAVE;
        }
        return switch (row) {
            case OPEN -> Settlement.LEAVE;
            // Closed without a decision: dead-lettered, its stock is to go back.
            case COMPLETED -> Settlement.RELEASE_DECIDED;
            case VOIDED -> Settlement.RELEASE_UNRECORDED;
        };
    }

    private int release(SaleStore.Held reservation, boolean neverRecorded) {
        OrderFacts order = reservation.order();
        long released = saleStore.release(order.skuId(), order.orderId(), order.userId());
        if (released <= 0) {
            // Settled meanwhile, or its sale is being rebuilt: the next run sees it again if it is still held.
            return 0;
        }
        if (neverRecorded) {
            statuses.putAll(List.of(new OrderView(order, OrderStatus.REJECTED, RejectReason.NOT_RECORDED)));
        }
        metrics.reservationsSwept("released", 1);
        OrderTrail.Scope scope = OrderTrail.about(order, Optional.empty());
        try {
            LOG.warn(
                    "released {} unit(s) of SKU {} held by order {} of {} since {} ({})",
                    released,
                    order.skuId(),
                    order.orderId(),
                    order.userId(),
                    Instant.ofEpochMilli(reservation.reservedAtMs()),
                    neverRecorded ? "never recorded" : "decided without settling");
        } finally {
            scope.close();
        }
        return 1;
    }

    /** The job that settles reservations left unsettled past {@code SECKILL_LEAK_SWEEP_AFTER_MS}. */
    public static Job job(ReconcilerParts parts, RepairSettings settings) {
        ReconcilerParts.Tables tables = parts.tables();
        LeakedReservationSweep sweep = new LeakedReservationSweep(
                parts.dsl(),
                tables.skus(),
                tables.orders(),
                tables.outbox(),
                tables.outboxRows(),
                parts.saleStore(),
                parts.statuses(),
                settings.leakSweepAfter(),
                parts.clock(),
                parts.metrics());
        return new Job("leaked reservation sweep", settings.leakSweepInterval(), sweep::sweep);
    }
}
