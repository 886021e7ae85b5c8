package io.seckill.mysqlstate;

import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Decides a batch of one SKU's orders in one transaction: the database's final word.
 *
 * <ol>
 *   <li>every order is checked against its source of truth first: a decided order against its {@code orders} row, a
 *       fresh one against its outbox row (same SKU, buyer and quantity). A record nothing stands behind (written by
 *       anyone who could reach the topic) is never decided: it is returned as {@link Unsupported};</li>
 *   <li>orders already decided (redelivery, relay re-send) keep their decision and are reported again;</li>
 *   <li>the sale window is checked again, by the time MySQL recorded each order (its outbox row's
 *       {@code created_at}, the database's clock) give or take {@code windowTolerance}: an ingress
 *       with a wrong clock cannot sell outside it;</li>
 *   <li>the per-user limit is checked against {@code user_purchases}, locked;</li>
 *   <li>stock is charged with one conditional {@code UPDATE ... WHERE stock >= total}. When the batch
 *       does not fit, the SKU row is locked and the stock handed out order by order, in arrival order;
 *       the rest are rejected SOLD_OUT;</li>
 *   <li>orders are inserted (unique order_id), purchases upserted, outbox rows marked completed.</li>
 * </ol>
 */
public final class OrderBatchWriter {

    private final DSLContext dsl;
    private final Clock clock;
    private final Duration windowTolerance;
    private final Duration paymentWindow;
    private final Skus skus = new Skus();
    private final Orders orders = new Orders();
    private final Outbox outbox = new Outbox();
    private final OutboxLookups outboxRows = new OutboxLookups();
    private final DeadLetteredOrders deadLettered = new DeadLetteredOrders();
    private final UserPurchases purchases = new UserPurchases();

    /** @param paymentWindow how long an order confirmed here awaits payment */
    public OrderBatchWriter(DSLContext dsl, Clock clock, Duration windowTolerance, Duration paymentWindow) {
        this.dsl = dsl;
        this.clock = clock;
        this.windowTolerance = windowTolerance;
        this.paymentWindow = paymentWindow;
    }

    /**
     * What became of one SKU's orders: the decisions, and the records their source of truth does not support (never
     * decided).
     */
    public record SkuDecisions(List<OrderResult> decided, List<Unsupported> unsupported) {}

    /** An order request nothing in MySQL stands behind, whoever wrote it. */
    public record Unsupported(OrderRequested order, UnsupportedRecords.Reason reason, String detail) {
    }

    /**
     * Runs a warm-up's orders ({@link io.seckill.schemas.kafka.WarmUpHeaders}) through the decision in a transaction
     * that is rolled back, so that a sale's first batch finds the decision's reads, its transaction and the connection
     * warm. The warm-up's SKU is not in MySQL and its orders have no outbox row, so they are found unsupported before
     * anything is written (rehearsing the writes would take rows this account must not insert); whatever a forged
     * marked record might reach is rolled back too.
     */
    public void rehearse(long skuId, List<OrderRequested> batch) {
        try {
            dsl.transaction(configuration -> {
                var _ = decide(DSL.using(configuration), skuId, batch);
                throw new RolledBack();
            });
        } catch (RolledBack expected) {
            // The rehearsal's end: nothing was committed.
        }
    }

    /** Thrown inside the rehearsal's transaction, so that jOOQ rolls it back. */
    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RolledBack() {
            super(null, null, false, false);
        }
    }

    /** Decides {@code batch}, orders of {@code skuId} in arrival order, in one transaction. */
    public SkuDecisions write(long skuId, List<OrderRequested> batch) {
        return dsl.transactionResult(configuration -> decide(DSL.using(configuration), skuId, batch));
    }

    private SkuDecisions decide(DSLContext tx, long skuId, List<OrderRequested> batch) {
        // Millisecond precision, as stored: a re-reported decision is identical to the first report.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Set<String> ids =
                batch.stream().map(OrderRequested::orderId).collect(Collectors.toCollection(LinkedHashSet::new));
        Map<String, OrderResult> decided = orders.decided(tx, ids);
        Map<String, OutboxLookups.Recorded> recorded = outboxRows.recordedOrders(
                tx, ids.stream().filter(id -> !decided.containsKey(id)).toList());

        List<Unsupported> unsupported = new ArrayList<>();
        Map<String, OrderRequested> byId = new LinkedHashMap<>();
        for (OrderRequested order : batch) {
            Optional<Unsupported> refusal = decided.containsKey(order.orderId())
                    ? refusal(
                            order,
                            OrderFacts.of(decided.get(order.orderId())),
                            UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW,
                            "its order")
                    : Optional.ofNullable(recorded.get(order.orderId()))
                            .map(row -> refusal(
                                    order,
                                    OrderFacts.of(row.order()),
                                    UnsupportedRecords.Reason.DIFFERS_FROM_OUTBOX_ROW,
                                    "its outbox row"))
                            .orElseGet(() -> Optional.of(new Unsupported(
                                    order,
                                    UnsupportedRecords.Reason.NO_OUTBOX_ROW,
                                    "order " + order.orderId() + " was never recorded")));
            refusal.ifPresentOrElse(unsupported::add, () -> byId.putIfAbsent(order.orderId(), order));
        }

        List<OrderResult> results = new ArrayList<>();
        byId.keySet().stream().filter(decided::containsKey).map(decided::get).forEach(results::add);
        List<OrderRequested> fresh = byId.values().stream()
                .filter(order -> !decided.containsKey(order.orderId()))
                .toList();
        if (!fresh.isEmpty()) {
            List<OrderResult> decisions = decideFresh(tx, skuId, fresh, recorded, now);
            Map<String, String> traces = new HashMap<>();
            fresh.forEach(order -> {
                String trace = recorded.get(order.orderId()).traceparent();
                if (trace != null) {
                    traces.put(order.orderId(), trace);
                }
            });
            // The trace as the ingress recorded it with the order, never as the record's header claims it.
            orders.insert(tx, fresh, decisions, paymentWindow, traces);
            outbox.complete(tx, fresh.stream().map(OrderRequested::orderId).toList(), now);
            results.addAll(decisions);
        }
        return new SkuDecisions(results, unsupported);
    }

    private static Optional<Unsupported> refusal(
            OrderRequested order, OrderFacts truth, UnsupportedRecords.Reason reason, String source) {
        String difference = truth.firstDifference(OrderFacts.of(order));
        return difference.isEmpty()
                ? Optional.empty()
                : Optional.of(new Unsupported(
                        order, reason, "order " + order.orderId() + " says " + difference + " of " + source));
    }

    /**
     * Rejects (DEAD_LETTERED) an order this sink failed on for good, if its row is still open and records exactly that
     * order: the failure is the sink's own, seen here, so it is evidence; the order would otherwise stay undecided.
     */
    public Optional<OrderResult> rejectUndecidable(OrderRequested failed) {
        return deadLettered
                .reject(
                        dsl,
                        failed.orderId(),
                        row -> OrderFacts.of(row.order()).equals(OrderFacts.of(failed)),
                        clock.instant().truncatedTo(ChronoUnit.MILLIS))
                .rejection();
    }

    private List<OrderResult> decideFresh(
            DSLContext tx,
            long skuId,
            List<OrderRequested> fresh,
            Map<String, OutboxLookups.Recorded> recorded,
            Instant now) {
        Optional<Skus.Sale> sale = skus.sale(tx, skuId);
        if (sale.isEmpty()) {
            return fresh.stream().map(order -> OrderResult.rejected(order, RejectReason.UNKNOWN_SKU, now)).toList();
        }
        int limit = sale.get().perUserLimit();
        Map<String, RejectReason> rejected = new HashMap<>();
        for (OrderRequested order : fresh) {
            if (!insideWindow(sale.get(), recorded.get(order.orderId()).order().requestedAt())) {
                rejected.put(order.orderId(), RejectReason.OUTSIDE_SALE_WINDOW);
            }
        }
        Map<String, Integer> held = purchases.lockHeld(
                tx, skuId, fresh.stream().map(OrderRequested::userId).distinct().toList());

        List<OrderRequested> withinLimit = new ArrayList<>();
        for (OrderRequested order : fresh) {
            if (rejected.containsKey(order.orderId())) {
                continue;
            }
            int holds = held.getOrDefault(order.userId(), 0);
            if (holds + order.quantity() > limit) {
                rejected.put(order.orderId(), RejectReason.PURCHASE_LIMIT_REACHED);
            } else {
                held.put(order.userId(), holds + order.quantity());
                withinLimit.add(order);
            }
        }
        for (OrderRequested soldOut : chargeStock(tx, skuId, withinLimit, now)) {
            rejected.put(soldOut.orderId(), RejectReason.SOLD_OUT);
            held.merge(soldOut.userId(), -soldOut.quantity(), Integer::sum);
        }
        upsertPurchases(tx, skuId, withinLimit, rejected, held);
        return fresh.stream()
                .map(order -> rejected.containsKey(order.orderId())
                        ? OrderResult.rejected(order, rejected.get(order.orderId()), now)
                        : OrderResult.confirmed(order, now))
                .toList();
    }

    private boolean insideWindow(Skus.Sale sale, Instant recordedAt) {
        return !recordedAt.isBefore(sale.startsAt().minus(windowTolerance))
                && recordedAt.isBefore(sale.endsAt().plus(windowTolerance));
    }

    /** @return the orders that found no stock */
    private List<OrderRequested> chargeStock(DSLContext tx, long skuId, List<OrderRequested> orders, Instant now) {
        int total = orders.stream().mapToInt(OrderRequested::quantity).sum();
        if (total == 0 || skus.charge(tx, skuId, total, now)) {
            return List.of();
        }
        // The batch does not fit. Under the row lock, hand out what is left first come, first served.
        int left = skus.lockStock(tx, skuId);
        int granted = 0;
        List<OrderRequested> soldOut = new ArrayList<>();
        for (OrderRequested order : orders) {
            if (granted + order.quantity() <= left) {
                granted += order.quantity();
            } else {
                soldOut.add(order);
            }
        }
        if (granted > 0 && !skus.charge(tx, skuId, granted, now)) {
            throw new IllegalStateException("stock of SKU " + skuId + " changed under its row lock");
        }
        return soldOut;
    }

    private void upsertPurchases(
            DSLContext tx,
            long skuId,
            List<OrderRequested> withinLimit,
            Map<String, RejectReason> rejected,
            Map<String, Integer> held) {
        Map<String, Integer> bought = new LinkedHashMap<>();
        withinLimit.stream()
                .filter(order -> !rejected.containsKey(order.orderId()))
                .forEach(order -> bought.put(order.userId(), held.get(order.userId())));
        purchases.record(tx, skuId, bought);
    }
}
