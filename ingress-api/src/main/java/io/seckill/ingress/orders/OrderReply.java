package io.seckill.ingress.orders;

import io.seckill.mysqlstate.Orders;
import io.seckill.redisstate.OrderView;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Instant;
import java.util.List;

/**
 * An order as its buyer reads it: {@code GET /api/v1/orders/{orderId}}, the buyer's list, and the answers
 * to a payment or a cancellation. Every step's time is there, null until the order took it.
 */
public record OrderReply(String orderId, long skuId, String userId, int quantity, OrderStatus status, RejectReason reason,
                         Instant requestedAt, Instant decidedAt, Instant payBy, Instant paidAt, String paymentReference,
                         Instant cancelledAt, Instant expiredAt) {

    /** An order MySQL has decided, with its lifecycle. */
    public static OrderReply of(Orders.Stored order) {
        return new OrderReply(order.orderId(), order.skuId(), order.userId(), order.quantity(), order.status(), order.reason(),
                order.requestedAt(), order.decidedAt(), order.payBy(), order.paidAt(), order.paymentReference(), order.cancelledAt(),
                order.expiredAt());
    }

    /** An order not decided in MySQL (pending, or closed without a decision): no step has a time yet. */
    public static OrderReply of(OrderView order) {
        return new OrderReply(order.orderId(), order.skuId(), order.userId(), order.quantity(), order.status(), order.reason(),
                null, null, null, null, null, null, null);
    }

    /** {@code GET /api/v1/orders?skuId=}: the buyer's orders of one SKU. */
    public record OfSku(long skuId, List<OrderReply> orders) {
    }
}
