package io.seckill.schemas.events;

import java.time.Instant;

/**
 * The buyer cancelled before paying; the units go back to the sale. Schema: {@code
 * json-schema/order-cancelled.v1.json}.
 */
public record OrderCancelled(int schemaVersion, String orderId, long skuId, String userId, int quantity, Instant at)
        implements OrderLifecycleEvent {

    public static final String TYPE = "OrderCancelled";

    @Override
    public OrderStatus status() {
        return OrderStatus.CANCELLED;
    }

    @Override
    public void validate() {
        OrderLifecycleEvent.check(this);
    }
}
