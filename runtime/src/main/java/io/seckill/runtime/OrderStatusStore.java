package io.seckill.runtime;

import io.seckill.schemas.redis.GlobalKeys;
import io.seckill.schemas.redis.LuaScript;
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

    private final LuaRunner lua;
    private final Duration ttl;

    public OrderStatusStore(LuaRunner lua, Duration ttl) {
        this.lua = lua;
        this.ttl = ttl;
    }

    /** Writes the entries in one round trip. @throws RuntimeException when any of them failed */
    public void putAll(List<OrderView> orders) {
        lua.runAll(orders.stream().map(this::putCall).toList());
    }

    private ScriptCall putCall(OrderView order) {
        List<String> args = List.of(Long.toString(ttl.toMillis()),
                "skuId", Long.toString(order.skuId()), "userId", order.userId(),
                "quantity", Integer.toString(order.quantity()), "status", order.status(),
                "reason", order.reason() == null ? "" : order.reason());
        return new ScriptCall(LuaScript.HASH_PUT, List.of(GlobalKeys.orderStatus(order.orderId())), args);
    }

    /** Records a decision on an order whose full entry may or may not still be here (a bare entry reads as absent). */
    public void decide(String orderId, String status, String reason) {
        lua.run(LuaScript.HASH_PUT, List.of(GlobalKeys.orderStatus(orderId)),
                List.of(Long.toString(ttl.toMillis()), "status", status, "reason", reason == null ? "" : reason));
    }

    public Optional<OrderView> get(String orderId) {
        Map<String, String> fields = lua.redis().hgetAll(GlobalKeys.orderStatus(orderId));
        if (fields.get("userId") == null || fields.get("status") == null) {
            return Optional.empty();
        }
        String reason = fields.getOrDefault("reason", "");
        return Optional.of(new OrderView(orderId, Long.parseLong(fields.get("skuId")), fields.get("userId"),
                Integer.parseInt(fields.get("quantity")), fields.get("status"), reason.isEmpty() ? null : reason));
    }

    public void delete(String orderId) {
        lua.redis().del(GlobalKeys.orderStatus(orderId));
    }
}
