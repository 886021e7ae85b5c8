package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.USER_PURCHASES;

import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderPaid;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * How a confirmed order ends, decided by MySQL alone: each transition locks the order's row and changes
 * it only from CONFIRMED, so a payment and an expiry (or a cancellation) racing at the deadline end with
 * exactly one winner, and the loser reads what won. A cancellation or an expiry gives the units back to
 * {@code sku.stock} and the buyer's {@code user_purchases} in the same transaction, and every ending writes
 * its event to {@link OrderEvents} there too, whence the reconciler returns the units to Redis, once.
 * Locks are taken orders, then user_purchases, then sku, the sink's order for the latter two; a deadlock
 * victim runs again ({@link DeadlockRetry}).
 */
public final class OrderEndings {

    private final Orders orders = new Orders();
    private final Skus skus = new Skus();
    private final OrderEvents events = new OrderEvents();
    private final Duration relayGrace;

    /** @param relayGrace how long an event may wait to be consumed before the relay sends it again */
    public OrderEndings(Duration relayGrace) {
        this.relayGrace = relayGrace;
    }

    /** What a buyer's request made of the order. */
    public enum Outcome {
        /** This request ended the order as asked. */
        DONE,
        /** The order had already ended as asked (the same payment, a second cancellation): nothing changed. */
        ALREADY,
        /** The order had ended otherwise, or cannot end so: nothing changed; {@link Ending#order()} says how it stands. */
        REFUSED,
        /** No such order of this buyer. */
        NOT_FOUND
    }

    /**
     * @param order the order as it stands after the request (empty when not found)
     * @param event the event written, when DONE
     */
    public record Ending(Outcome outcome, Optional<Orders.Stored> order, Optional<OrderLifecycleEvent> event) {

        static Ending of(Outcome outcome, Orders.Stored order) {
            return new Ending(outcome, Optional.of(order), Optional.empty());
        }
    }

    /**
     * Pays the buyer's order: only a CONFIRMED order before its deadline is paid; the same reference again
     * is ALREADY; anything else is REFUSED with the order as it stands.
     */
    public Ending pay(DSLContext db, String orderId, String userId, String paymentReference, Instant now) {
        return end(db, orderId, userId, now, order -> order.status() == OrderStatus.PAID && paymentReference.equals(order.paymentReference()),
                (tx, order) -> {
                    orders.markPaid(tx, orderId, paymentReference, now);
                    return new OrderPaid(OrderLifecycleEvent.CURRENT_VERSION, orderId, order.skuId(), userId, order.quantity(), paymentReference,
                            now);
                });
    }

    /** Cancels the buyer's unpaid order before its deadline; a second cancellation is ALREADY. */
    public Ending cancel(DSLContext db, String orderId, String userId, Instant now) {
        return end(db, orderId, userId, now, order -> order.status() == OrderStatus.CANCELLED, (tx, order) -> {
            orders.markCancelled(tx, orderId, now);
            giveBack(tx, List.of(order), now);
            return new OrderCancelled(OrderLifecycleEvent.CURRENT_VERSION, orderId, order.skuId(), userId, order.quantity(), now);
        });
    }

    /**
     * Ends the buyer's order by {@code change}, in one transaction with its row locked, if it is CONFIRMED and
     * within its deadline; otherwise nothing changes: ALREADY when it ended as asked before, else REFUSED.
     */
    private Ending end(DSLContext db, String orderId, String userId, Instant now, Predicate<Orders.Stored> endedAsAsked,
                       BiFunction<DSLContext, Orders.Stored, OrderLifecycleEvent> change) {
        return DeadlockRetry.run(() -> db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            Optional<Orders.Stored> found = orders.lock(tx, orderId).filter(order -> order.userId().equals(userId));
            if (found.isEmpty()) {
                return new Ending(Outcome.NOT_FOUND, Optional.empty(), Optional.empty());
            }
            Orders.Stored order = found.get();
            if (order.status() != OrderStatus.CONFIRMED || order.overdue(now)) {
                return Ending.of(endedAsAsked.test(order) ? Outcome.ALREADY : Outcome.REFUSED, order);
            }
            OrderLifecycleEvent event = change.apply(tx, order);
            events.insert(tx, List.of(event), now.plus(relayGrace));
            return new Ending(Outcome.DONE, orders.stored(tx, orderId), Optional.of(event));
        }));
    }

    /**
     * Expires up to {@code limit} orders whose deadline passed at {@code now}, in one transaction: the
     * batch bounds how long the sku rows stay locked. Orders being paid right now are skipped (their row is
     * locked) and either paid or expired by the next call.
     * @return the events written, one per expired order
     */
    public List<OrderExpired> expireOverdue(DSLContext db, Instant now, int limit) {
        return DeadlockRetry.run(() -> db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<Orders.Stored> overdue = orders.lockOverdue(tx, now, limit);
            if (overdue.isEmpty()) {
                return List.of();
            }
            orders.markExpired(tx, overdue.stream().map(Orders.Stored::orderId).toList(), now);
            giveBack(tx, overdue, now);
            List<OrderExpired> expired = overdue.stream()
                    .map(order -> new OrderExpired(OrderLifecycleEvent.CURRENT_VERSION, order.orderId(), order.skuId(), order.userId(),
                            order.quantity(), order.payBy(), now))
                    .toList();
            events.insert(tx, expired, now.plus(relayGrace));
            return expired;
        }));
    }

    /** The units back to each buyer's purchases, then to each SKU's stock, in key order (no deadlock between two callers). */
    private void giveBack(DSLContext tx, List<Orders.Stored> ended, Instant now) {
        Map<Long, Map<String, Integer>> byBuyer = new TreeMap<>();
        ended.forEach(order -> byBuyer.computeIfAbsent(order.skuId(), sku -> new TreeMap<>())
                .merge(order.userId(), order.quantity(), Integer::sum));
        tx.batch(byBuyer.entrySet().stream()
                .flatMap(sku -> sku.getValue().entrySet().stream().map(buyer -> tx.update(USER_PURCHASES)
                        .set(USER_PURCHASES.QUANTITY, USER_PURCHASES.QUANTITY.minus(buyer.getValue()))
                        .where(USER_PURCHASES.SKU_ID.eq(sku.getKey()))
                        .and(USER_PURCHASES.USER_ID.eq(buyer.getKey()))))
                .toList()).execute();
        ended.stream()
                .collect(Collectors.groupingBy(Orders.Stored::skuId, TreeMap::new, Collectors.summingInt(Orders.Stored::quantity)))
                .forEach((skuId, units) -> skus.giveBack(tx, skuId, units, now));
    }
}
