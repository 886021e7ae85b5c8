package io.seckill.schemas.events;

import java.time.Instant;

/**
 * Stock reserved in Redis for an order the database rejected: the reconciler puts it back, once.
 * Keyed by SKU on {@code stock-compensations}. Schema: {@code json-schema/stock-compensation.v1.json}.
 */
public record StockCompensation(int schemaVersion, String orderId, long skuId, String userId, int quantity,
                                RejectReason reason, Instant createdAt) implements VersionedEvent {

    public static final int CURRENT_VERSION = 1;

    public static StockCompensation forRejected(OrderResult rejected) {
        return new StockCompensation(CURRENT_VERSION, rejected.orderId(), rejected.skuId(), rejected.userId(),
                rejected.quantity(), rejected.reason(), rejected.decidedAt());
    }

    @Override
    public void validate() {
        EventChecks.version(schemaVersion, CURRENT_VERSION);
        EventChecks.order(orderId, skuId, userId, quantity);
        EventChecks.present("createdAt", createdAt);
    }
}
