package io.seckill.redisstate;

import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;

/** An order as its buyer sees it when polling. {@code reason} is null unless REJECTED. */
public record OrderView(String orderId, long skuId, String userId, int quantity, OrderStatus status, RejectReason reason) {

    public static OrderView pending(String orderId, long skuId, String userId, int quantity) {
        return new OrderView(orderId, skuId, userId, quantity, OrderStatus.PENDING, null);
    }
}
