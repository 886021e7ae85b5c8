package io.seckill.ingress.orders;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.seckill.mysqlstate.Orders;
import io.seckill.redisstate.OrderView;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Instant;
import java.util.List;

/**
 * An order as its buyer reads it: {@code GET /api/v1/orders/{orderId}}, the buyer's list, and the answers
 * to a payment or a cancellation. Every step's time is there, null until the order took it. The order's facts are
 * written as its own fields ({@code orderId}, {@code skuId}, {@code userId}, {@code quantity}), as the API's document
 * has them.
 */
public record OrderReply(@JsonUnwrapped OrderFacts order, OrderStatus status, RejectReason reason,
                         Instant requestedAt, Instant decidedAt, Instant payBy, Instant paidAt, String paymentReference,
                         Instant cancelledAt, Instant expiredAt) {

    /** An order MySQL has decided, with its lifecycle. */
    public static OrderReply of(Orders.Stored stored) {
        return new OrderReply(
                stored.order(),
                stored.status(),
                stored.reason(),
                stored.requestedAt(),
                stored.decidedAt(),
                stored.payBy(),
                stored.paidAt(),
                stored.paymentReference(),
                stored.cancelledAt(),
                stored.expiredAt());
    }

    /** An order not decided in MySQL (pending, or closed without a decision): no step has a time yet. */
    public static OrderReply of(OrderView view) {
        return new OrderReply(view.order(), view.status(), view.reason(), null, null, null, null, null, null, null);
    }

    /** {@code GET /api/v1/orders?skuId=}: the buyer's orders of one SKU. */
    public record OfSku(long skuId, List<OrderReply> orders) {
    }
}
