package io.seckill.ingress.orders;

import io.seckill.mysqlstate.Orders;
import io.seckill.redisstate.OrderView;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An order as its buyer reads it: {@code GET /api/v1/orders/{orderId}}, the buyer's list, and the answers
 * to a payment or a cancellation. Every step's time is there, null until the order took it.
 */
public final class OrderBodies {

    private OrderBodies() {
    }

    /** An order MySQL has decided, with its lifecycle. */
    public static Map<String, Object> of(Orders.Stored order) {
        Map<String, Object> body = common(order.orderId(), order.skuId(), order.userId(), order.quantity());
        body.put("status", order.status());
        body.put("reason", order.reason());
        body.put("requestedAt", order.requestedAt());
        body.put("decidedAt", order.decidedAt());
        body.put("payBy", order.payBy());
        body.put("paidAt", order.paidAt());
        body.put("paymentReference", order.paymentReference());
        body.put("cancelledAt", order.cancelledAt());
        body.put("expiredAt", order.expiredAt());
        return body;
    }

    /** An order not decided in MySQL (pending, or closed without a decision): no step has a time yet. */
    public static Map<String, Object> of(OrderView order) {
        Map<String, Object> body = common(order.orderId(), order.skuId(), order.userId(), order.quantity());
        body.put("status", order.status());
        body.put("reason", order.reason());
        for (String step : new String[] {"requestedAt", "decidedAt", "payBy", "paidAt", "paymentReference", "cancelledAt", "expiredAt"}) {
            body.put(step, null);
        }
        return body;
    }

    private static Map<String, Object> common(String orderId, long skuId, String userId, int quantity) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", orderId);
        body.put("skuId", skuId);
        body.put("userId", userId);
        body.put("quantity", quantity);
        return body;
    }
}
