package io.seckill.schemas.events;

/**
 * What every record about one order says of it, whatever its kind: which order, of which SKU, whose, how many units.
 * Two records (or a record and a row) agree on an order when their facts are equal.
 */
public record OrderFacts(String orderId, long skuId, String userId, int quantity) {

    public static OrderFacts of(OrderRequested order) {
        return new OrderFacts(order.orderId(), order.skuId(), order.userId(), order.quantity());
    }

    public static OrderFacts of(OrderResult result) {
        return new OrderFacts(result.orderId(), result.skuId(), result.userId(), result.quantity());
    }

    public static OrderFacts of(StockCompensation compensation) {
        return new OrderFacts(
                compensation.orderId(), compensation.skuId(), compensation.userId(), compensation.quantity());
    }

    public static OrderFacts of(OrderLifecycleEvent event) {
        return new OrderFacts(event.orderId(), event.skuId(), event.userId(), event.quantity());
    }

    /**
     * The first field in which {@code other} differs from these facts, for a refusal's reason; empty when they agree.
     */
    public String firstDifference(OrderFacts other) {
        if (!orderId.equals(other.orderId)) {
            return "orderId " + other.orderId + " instead of " + orderId;
        }
        if (skuId != other.skuId) {
            return "skuId " + other.skuId + " instead of " + skuId;
        }
        if (!userId.equals(other.userId)) {
            return "userId " + other.userId + " instead of " + userId;
        }
        if (quantity != other.quantity) {
            return "quantity " + other.quantity + " instead of " + quantity;
        }
        return "";
    }
}
