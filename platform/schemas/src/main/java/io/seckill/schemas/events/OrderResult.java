package io.seckill.schemas.events;

import java.time.Instant;

/**
 * The database's final word on one order, published by the db-sink after its commit.
 * Keyed by SKU on {@code order-results}. Schema: {@code json-schema/order-result.v1.json}.
 */
public record OrderResult(int schemaVersion, String orderId, long skuId, String userId, int quantity,
                          OrderStatus status, RejectReason reason, Instant decidedAt) implements VersionedEvent {

    public static final int CURRENT_VERSION = 1;

    public static OrderResult confirmed(OrderRequested order, Instant decidedAt) {
        return new OrderResult(CURRENT_VERSION, order.orderId(), order.skuId(), order.userId(), order.quantity(),
                OrderStatus.CONFIRMED, null, decidedAt);
    }

    public static OrderResult rejected(OrderRequested order, RejectReason reason, Instant decidedAt) {
        return new OrderResult(CURRENT_VERSION, order.orderId(), order.skuId(), order.userId(), order.quantity(),
                OrderStatus.REJECTED, reason, decidedAt);
    }

    @Override
    public void validate() {
        EventChecks.version(schemaVersion, CURRENT_VERSION);
        EventChecks.order(orderId, skuId, userId, quantity);
        EventChecks.present("status", status);
        EventChecks.present("decidedAt", decidedAt);
    }
}
