package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDERS;

import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep10;
import org.jooq.impl.DSL;

/**
 * The owner of the {@code orders} table: every decided order, CONFIRMED or REJECTED, unique by order id,
 * and how each confirmed one ended (PAID, CANCELLED, EXPIRED). Each method runs on the
 * {@link DSLContext} it is given, so a caller's transaction can include it.
 */
public final class Orders {

    /** The statuses whose units are sold: confirmed and awaiting payment, or paid. */
    private static final List<OrderStatus> HOLDING_STOCK = List.of(OrderStatus.CONFIRMED, OrderStatus.PAID);

    /**
     * An order as MySQL holds it, with the time of each step: {@code payBy} is set when it was confirmed
     * (null for orders confirmed before payment deadlines existed, which never expire), the others when
     * it ended that way.
     */
    public record Stored(OrderFacts order, OrderStatus status, RejectReason reason,
                         Instant requestedAt, Instant decidedAt, Instant payBy, Instant paidAt, String paymentReference,
                         Instant cancelledAt, Instant expiredAt) {

        /** Whether the deadline has passed at {@code now} (never for an order without one). */
        public boolean overdue(Instant now) {
            return payBy != null && !now.isBefore(payBy);
        }
    }

    /**
     * The decisions already recorded for any of these orders, by order id (CONFIRMED or REJECTED, however they ended
     * since).
     */
    public Map<String, OrderResult> decided(DSLContext db, Collection<String> orderIds) {
        return db.selectFrom(ORDERS).where(ORDERS.ORDER_ID.in(orderIds)).fetchMap(ORDERS.ORDER_ID, Orders::resultOf);
    }

    /** One order with its lifecycle, as stored. */
    public Optional<Stored> stored(DSLContext db, String orderId) {
        return db.selectFrom(ORDERS).where(ORDERS.ORDER_ID.eq(orderId)).fetchOptional(Orders::storedOf);
    }

    /** Several orders with their lifecycle, as stored, by order id; ids MySQL never decided are left out. */
    public Map<String, Stored> stored(DSLContext db, Collection<String> orderIds) {
        return db.selectFrom(ORDERS).where(ORDERS.ORDER_ID.in(orderIds)).fetchMap(ORDERS.ORDER_ID, Orders::storedOf);
    }

    /**
     * The same, with the row locked until the caller's transaction ends: the one place an order's ending is decided.
     */
    public Optional<Stored> lock(DSLContext tx, String orderId) {
        return tx.selectFrom(ORDERS).where(ORDERS.ORDER_ID.eq(orderId)).forUpdate().fetchOptional(Orders::storedOf);
    }

    /** A buyer's decided orders of one SKU with their lifecycle, newest first (at most {@code limit}). */
    public List<Stored> ofBuyer(DSLContext db, String userId, long skuId, int limit) {
        return db.selectFrom(ORDERS)
                .where(ORDERS.SKU_ID.eq(skuId)).and(ORDERS.USER_ID.eq(userId))
                .orderBy(ORDERS.REQUESTED_AT.desc())
                .limit(limit)
                .fetch(Orders::storedOf);
    }

    /**
     * Locks up to {@code limit} confirmed orders whose deadline passed at {@code now}, oldest deadline first,
     * through the (status, pay_by) index; rows another transaction holds (a payment being made) are skipped.
     */
    public List<Stored> lockOverdue(DSLContext tx, Instant now, int limit) {
        return tx.selectFrom(ORDERS)
                .where(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .and(ORDERS.PAY_BY.le(now))
                .orderBy(ORDERS.PAY_BY)
                .limit(limit)
                .forUpdate().skipLocked()
                .fetch(Orders::storedOf);
    }

    public void markPaid(DSLContext tx, String orderId, String paymentReference, Instant at) {
        tx.update(ORDERS)
                .set(ORDERS.STATUS, OrderStatus.PAID)
                .set(ORDERS.PAID_AT, at)
                .set(ORDERS.PAYMENT_REFERENCE, paymentReference)
                .where(ORDERS.ORDER_ID.eq(orderId))
                .and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .execute();
    }

    public void markCancelled(DSLContext tx, String orderId, Instant at) {
        tx.update(ORDERS).set(ORDERS.STATUS, OrderStatus.CANCELLED).set(ORDERS.CANCELLED_AT, at)
                .where(ORDERS.ORDER_ID.eq(orderId)).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .execute();
    }

    public void markExpired(DSLContext tx, Collection<String> orderIds, Instant at) {
        tx.update(ORDERS).set(ORDERS.STATUS, OrderStatus.EXPIRED).set(ORDERS.EXPIRED_AT, at)
                .where(ORDERS.ORDER_ID.in(orderIds)).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .execute();
    }

    public boolean exists(DSLContext db, String orderId) {
        return db.fetchExists(ORDERS, ORDERS.ORDER_ID.eq(orderId));
    }

    /**
     * The trace each of the orders was placed under, by order id (orders placed before traces existed are left out).
     */
    public Map<String, String> traces(DSLContext db, Collection<String> orderIds) {
        return db.select(ORDERS.ORDER_ID, ORDERS.TRACEPARENT).from(ORDERS)
                .where(ORDERS.ORDER_ID.in(orderIds)).and(ORDERS.TRACEPARENT.isNotNull())
                .fetchMap(ORDERS.ORDER_ID, ORDERS.TRACEPARENT);
    }

    public boolean anyFor(DSLContext db, long skuId) {
        return db.fetchExists(ORDERS, ORDERS.SKU_ID.eq(skuId));
    }

    /** Units sold and kept: confirmed (awaiting payment) or paid. */
    public long confirmedQuantity(DSLContext db, long skuId) {
        return quantity(db, skuId, HOLDING_STOCK);
    }

    public long paidQuantity(DSLContext db, long skuId) {
        return quantity(db, skuId, List.of(OrderStatus.PAID));
    }

    /**
     * How a SKU's decided orders stand: how many there are, their units by status, and the rejected ones by reason.
     * A SKU without decided orders has an empty tally.
     */
    public record Tally(long orders, Map<OrderStatus, Long> units, Map<RejectReason, Long> rejectedOrders) {

        public static final Tally NONE = new Tally(0, Map.of(), Map.of());

        public long units(OrderStatus status) {
            return units.getOrDefault(status, 0L);
        }
    }

    /** The tally of each of {@code skuIds} that has decided orders, in one grouped query. */
    public Map<Long, Tally> tally(DSLContext db, Collection<Long> skuIds) {
        Map<Long, Long> orders = new HashMap<>();
        Map<Long, Map<OrderStatus, Long>> units = new HashMap<>();
        Map<Long, Map<RejectReason, Long>> rejected = new HashMap<>();
        db.select(ORDERS.SKU_ID, ORDERS.STATUS, ORDERS.REASON, DSL.count(), DSL.sum(ORDERS.QUANTITY))
                .from(ORDERS)
                .where(ORDERS.SKU_ID.in(skuIds))
                .groupBy(ORDERS.SKU_ID, ORDERS.STATUS, ORDERS.REASON)
                .forEach(row -> {
                    long sku = row.value1();
                    long count = row.value4();
                    orders.merge(sku, count, Long::sum);
                    units.computeIfAbsent(sku, any -> new EnumMap<>(OrderStatus.class))
                            .merge(row.value2(), row.value5().longValue(), Long::sum);
                    if (row.value3() != null) {
                        rejected.computeIfAbsent(sku, any -> new EnumMap<>(RejectReason.class))
                                .merge(row.value3(), count, Long::sum);
                    }
                });
        Map<Long, Tally> tallies = new HashMap<>();
        orders.forEach((sku, count) -> tallies.put(sku, new Tally(count, Map.copyOf(units.get(sku)),
                Map.copyOf(rejected.getOrDefault(sku, Map.of())))));
        return tallies;
    }

    private static long quantity(DSLContext db, long skuId, List<OrderStatus> statuses) {
        BigDecimal sum = db.select(DSL.sum(ORDERS.QUANTITY)).from(ORDERS)
                .where(ORDERS.SKU_ID.eq(skuId)).and(ORDERS.STATUS.in(statuses))
                .fetchOne(0, BigDecimal.class);
        return sum == null ? 0 : sum.longValue();
    }

    /**
     * @param decisions one per order of {@code orders}, in the same order
     * @param paymentWindow how long a confirmed order awaits payment: its {@code pay_by} is its decision time plus this
     */
    public void insert(
            DSLContext tx, List<OrderRequested> orders, List<OrderResult> decisions, Duration paymentWindow) {
        insert(tx, orders, decisions, paymentWindow, Map.of());
    }

    /**
     * The same, each order with the trace it was placed under, as its outbox row records it ({@code traceparents} by
     * order id; an order missing there has none): the order's lifecycle events continue that trace.
     */
    public void insert(DSLContext tx, List<OrderRequested> orders, List<OrderResult> decisions, Duration paymentWindow,
                       Map<String, String> traceparents) {
        InsertValuesStep10<
                        OrdersRecord,
                        String,
                        Long,
                        String,
                        Integer,
                        OrderStatus,
                        RejectReason,
                        Instant,
                        Instant,
                        Instant,
                        String>
                insert = tx.insertInto(
                        ORDERS,
                        ORDERS.ORDER_ID,
                        ORDERS.SKU_ID,
                        ORDERS.USER_ID,
                        ORDERS.QUANTITY,
                        ORDERS.STATUS,
                        ORDERS.REASON,
                        ORDERS.REQUESTED_AT,
                        ORDERS.DECIDED_AT,
                        ORDERS.PAY_BY,
                        ORDERS.TRACEPARENT);
        for (int i = 0; i < decisions.size(); i++) {
            OrderResult result = decisions.get(i);
            Instant payBy = result.status() == OrderStatus.CONFIRMED ? result.decidedAt().plus(paymentWindow) : null;
            insert = insert.values(
                    result.orderId(),
                    result.skuId(),
                    result.userId(),
                    result.quantity(),
                    result.status(),
                    result.reason(),
                    orders.get(i).requestedAt(),
                    result.decidedAt(),
                    payBy,
                    traceparents.get(result.orderId()));
        }
        insert.execute();
    }

    /** Rejections only, which await no payment. */
    public void insertRejected(DSLContext tx, List<OrderRequested> orders, List<OrderResult> rejections) {
        if (rejections.stream().anyMatch(result -> result.status() != OrderStatus.REJECTED)) {
            throw new IllegalArgumentException("not all rejections: " + rejections);
        }
        insert(tx, orders, rejections, Duration.ZERO);
    }

    private static Stored storedOf(OrdersRecord row) {
        return new Stored(
                new OrderFacts(row.getOrderId(), row.getSkuId(), row.getUserId(), row.getQuantity()),
                row.getStatus(),
                row.getReason(),
                row.getRequestedAt(),
                row.getDecidedAt(),
                row.getPayBy(),
                row.getPaidAt(),
                row.getPaymentReference(),
                row.getCancelledAt(),
                row.getExpiredAt());
    }

    /** The decision on the order: an order that was paid, cancelled or expired since was CONFIRMED. */
    private static OrderResult resultOf(OrdersRecord row) {
        OrderStatus decision = switch (row.getStatus()) {
            case CONFIRMED, PAID, CANCELLED, EXPIRED -> OrderStatus.CONFIRMED;
            case PENDING, REJECTED -> row.getStatus();
        };
        return new OrderResult(OrderResult.CURRENT_VERSION, row.getOrderId(), row.getSkuId(), row.getUserId(),
                row.getQuantity(), decision, row.getReason(), row.getDecidedAt());
    }
}
