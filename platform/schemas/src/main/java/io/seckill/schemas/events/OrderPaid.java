package io.seckill.schemas.events;

import java.time.Instant;

/** The buyer paid before the deadline. Schema: {@code json-schema/order-paid.v1.json}. */
public record OrderPaid(
        int schemaVersion, String orderId, long skuId, String userId, int quantity, String paymentReference, Instant at)
        implements OrderLifecycleEvent {

    public static final String TYPE = "OrderPaid";

    @Override
    public OrderStatus status() {
        return OrderStatus.PAID;
    }

    @Override
    public void validate() {
        OrderLifecycleEvent.check(this);
        EventChecks.present("paymentReference", paymentReference);
    }
}
