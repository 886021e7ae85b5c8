package io.seckill.schemas.events;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;

/**
 * How a confirmed order ended: paid, cancelled by its buyer, or expired unpaid. Written with the change
 * in MySQL (the {@code order_events} outbox) and keyed by order id on {@code order-lifecycle}, so one
 * order's events stay in order. The JSON names its kind in {@code type}; one JSON Schema per kind.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = OrderPaid.class, name = OrderPaid.TYPE),
    @JsonSubTypes.Type(value = OrderCancelled.class, name = OrderCancelled.TYPE),
    @JsonSubTypes.Type(value = OrderExpired.class, name = OrderExpired.TYPE)
})
public sealed interface OrderLifecycleEvent extends VersionedEvent permits OrderPaid, OrderCancelled, OrderExpired {

    int CURRENT_VERSION = 1;

    String orderId();

    long skuId();

    String userId();

    int quantity();

    /** When the order ended. */
    Instant at();

    /** The order's status from now on. */
    OrderStatus status();

    /** Whether the order's units go back to the sale (a cancellation or an expiry). */
    default boolean returnsStock() {
        return switch (status()) {
            case CANCELLED, EXPIRED -> true;
            case PAID -> false;
            case PENDING, CONFIRMED, REJECTED -> throw new IllegalStateException("not an ending: " + status());
        };
    }

    /** The event's name, as written in {@code type} and in the outbox's {@code type} column. */
    default String type() {
        return getClass().getSimpleName();
    }

    static void check(OrderLifecycleEvent event) {
        EventChecks.version(event.schemaVersion(), CURRENT_VERSION);
        EventChecks.order(event.orderId(), event.skuId(), event.userId(), event.quantity());
        EventChecks.present("at", event.at());
    }
}
