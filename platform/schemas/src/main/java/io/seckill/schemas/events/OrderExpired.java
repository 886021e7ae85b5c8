package io.seckill.schemas.events;

import java.time.Instant;

/**
 * The payment deadline {@code payBy} passed unpaid; the units go back to the sale.
 * Schema: {@code json-schema/order-expired.v1.json}.
 */
public record OrderExpired(
        int schemaVersion, String orderId, long skuId, String userId, int quantity, Instant payBy, Instant at)
        implements OrderLifecycleEvent {

    public static final String TYPE = "OrderExpired";

    @Override
    public OrderStatus status() {
        return OrderStatus.EXPIRED;
    }

    @Override
    public void validate() {
        OrderLifecycleEvent.check(this);
        EventChecks.present("payBy", payBy);
    }
}
