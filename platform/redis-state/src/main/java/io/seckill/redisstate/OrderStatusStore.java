package io.seckill.redisstate;

import io.seckill.config.Env;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Order status in Redis, so buyers polling during the storm never reach MySQL. The ingress writes
 * PENDING before the order exists anywhere else; the reconciler writes the decision. Entries expire;
 * older orders are read from MySQL.
 */
public final class OrderStatusStore {

    /** How long statuses stay in Redis for polling buyers; the ingress and the reconciler both write them. */
    public static final String TTL = "SECKILL_ORDER_STATUS_TTL_MS";
    private static final Duration DEFAULT_TTL = Duration.ofHours(24);

    private final LuaRunner lua;
    private final Duration ttl;

    public OrderStatusStore(LuaRunner lua, Duration ttl) {
        this.lua = lua;
        this.ttl = ttl;
    }

    public static Duration ttl(Env env) {
        return env.millis(TTL, DEFAULT_TTL);
    }

    /** Writes the entries in one round trip. @throws RuntimeException when any of them failed */
    public void putAll(List<OrderView> orders) {
        lua.runAll(orders.stream().map(this::putCall).toList());
    }

    private ScriptCall putCall(OrderView view) {
        OrderFacts order = view.order();
        List<String> args = List.of(Long.toString(ttl.toMillis()),
                "skuId", Long.toString(order.skuId()), "userId", order.userId(),
                "quantity", Integer.toString(order.quantity()), "status", view.status().name(),
                "reason", reasonText(view.reason()));
        return new ScriptCall(LuaScript.HASH_PUT, List.of(GlobalKeys.orderStatus(order.orderId())), args);
    }

    /** Records a decision on an order whose full entry may or may not still be here (a bare entry reads as absent). */
    public void decide(String orderId, OrderStatus status, RejectReason reason) {
        lua.run(LuaScript.HASH_PUT, List.of(GlobalKeys.orderStatus(orderId)),
                List.of(Long.toString(ttl.toMillis()), "status", status.name(), "reason", reasonText(reason)));
    }

    public Optional<OrderView> get(String orderId) {
        Map<String, String> fields = lua.redis().hgetAll(GlobalKeys.orderStatus(orderId));
        if (fields.get("userId") == null || fields.get("status") == null) {
            return Optional.empty();
        }
        String reason = fields.getOrDefault("reason", "");
        return Optional.of(new OrderView(
                new OrderFacts(
                        orderId,
                        Long.parseLong(fields.get("skuId")),
                        fields.get("userId"),
                        Integer.parseInt(fields.get("quantity"))),
                OrderStatus.valueOf(fields.get("status")),
                reason.isEmpty() ? null : RejectReason.valueOf(reason)));
    }

    public void delete(String orderId) {
        lua.redis().del(GlobalKeys.orderStatus(orderId));
    }

    private static String reasonText(RejectReason reason) {
        return reason == null ? "" : reason.name();
    }
}
