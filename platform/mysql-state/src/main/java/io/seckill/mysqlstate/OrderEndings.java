package io.seckill.mysqlstate;

import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderPaid;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * How a confirmed order ends, decided by MySQL alone: each transition locks the order's row and changes
 * it only from CONFIRMED, so a payment and an expiry (or a cancellation) racing at the deadline end with
 * exactly one winner, and the loser reads what won. Every ending writes its event to {@link OrderEvents} in
 * the same transaction; a cancelled or expired order's units go back from there, to MySQL by
 * {@link ReturnedUnits} and then to Redis, both by the reconciler: the buyer-facing ingress, which cancels,
 * never writes stock. A deadlock victim runs again ({@link DeadlockRetry}).
 */
public final class OrderEndings {

    private final Orders orders = new Orders();
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
        /**
         * The order had ended otherwise, or cannot end so: nothing changed; {@link Ending#order()} says how it stands.
         */
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
        return end(
                db,
                orderId,
                userId,
                now,
                order -> order.status() == OrderStatus.PAID && paymentReference.equals(order.paymentReference()),
                (tx, stored) -> {
                    orders.markPaid(tx, orderId, paymentReference, now);
                    return new OrderPaid(
                            OrderLifecycleEvent.CURRENT_VERSION,
                            orderId,
                            stored.order().skuId(),
                            userId,
                            stored.order().quantity(),
                            paymentReference,
                            now);
                });
    }

    /** Cancels the buyer's unpaid order before its deadline; a second cancellation is ALREADY. */
    public Ending cancel(DSLContext db, String orderId, String userId, Instant now) {
        return end(db, orderId, userId, now, order -> order.status() == OrderStatus.CANCELLED, (tx, stored) -> {
            orders.markCancelled(tx, orderId, now);
            return new OrderCancelled(
                    OrderLifecycleEvent.CURRENT_VERSION,
                    orderId,
                    stored.order().skuId(),
                    userId,
                    stored.order().quantity(),
                    now);
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
            Optional<Orders.Stored> found = orders.lock(tx, orderId)
                    .filter(stored -> stored.order().userId().equals(userId));
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
     * batch bounds how long the order rows stay locked. Orders being paid right now are skipped (their row is
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
            orders.markExpired(
                    tx,
                    overdue.stream()
                            .map(Orders.Stored::order)
                            .map(OrderFacts::orderId)
                            .toList(),
                    now);
            List<OrderExpired> expired = overdue.stream()
                    .map(stored -> new OrderExpired(
                            OrderLifecycleEvent.CURRENT_VERSION,
                            stored.order().orderId(),
                            stored.order().skuId(),
                            stored.order().userId(),
                            stored.order().quantity(),
                            stored.payBy(),
                            now))
                    .toList();
            events.insert(tx, expired, now.plus(relayGrace));
            return expired;
        }));
    }
}
