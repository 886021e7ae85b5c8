package io.seckill.schemas.events;

import java.time.Instant;

/**
 * A buyer's reserved order, published by the ingress (and re-published by the outbox relay).
 * Keyed by SKU on {@code order-requests}. Schema: {@code json-schema/order-requested.v1.json}.
 */
public record OrderRequested(int schemaVersion, String orderId, long skuId, String userId, int quantity,
                             Instant requestedAt) implements VersionedEvent {

    public static final int CURRENT_VERSION = 1;

    public static OrderRequested of(String orderId, long skuId, String userId, int quantity, Instant requestedAt) {
        return new OrderRequested(CURRENT_VERSION, orderId, skuId, userId, quantity, requestedAt);
    }

    @Override
    public void validate() {
        EventChecks.version(schemaVersion, CURRENT_VERSION);
        EventChecks.order(orderId, skuId, userId, quantity);
        EventChecks.present("requestedAt", requestedAt);
    }
}
