package io.seckill.redisstate;

import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;

/** An order as its buyer sees it when polling. {@code reason} is null unless REJECTED. */
public record OrderView(OrderFacts order, OrderStatus status, RejectReason reason) {

    public static OrderView pending(OrderFacts order) {
        return new OrderView(order, OrderStatus.PENDING, null);
    }
}
