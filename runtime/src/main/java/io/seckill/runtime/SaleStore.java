package io.seckill.runtime;

import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.redis.LuaScript;
import io.seckill.schemas.redis.SkuKeys;
import java.util.List;

/**
 * A SKU's sale state in Redis, changed only through the Lua scripts of {@link LuaScript}, so every
 * change is one atomic step.
 */
public final class SaleStore {

    private final LuaRunner lua;

    public SaleStore(LuaRunner lua) {
        this.lua = lua;
    }

    /** One atomic decision: sale loaded and open, quantity within the limit, stock, user's limit, then reserve. */
    public ReserveOutcome reserve(long skuId, String orderId, String userId, int quantity, long nowMs) {
        List<?> reply = (List<?>) run(LuaScript.RESERVE, skuId, orderId, userId, Integer.toString(quantity), Long.toString(nowMs));
        return new ReserveOutcome((String) reply.get(0), ((Number) reply.get(1)).longValue());
    }

    /** Puts a reservation back, at most once per order. @return units returned (0 if none was held) */
    public long release(long skuId, String orderId) {
        return (Long) run(LuaScript.RELEASE, skuId, orderId);
    }

    /**
     * Settles confirmed reservations, each at most once per order, in one round trip.
     * @throws RuntimeException when any of them failed (settling again is harmless)
     */
    public void confirmAll(List<OrderResult> confirmed) {
        lua.runAll(confirmed.stream()
                .map(order -> new ScriptCall(LuaScript.CONFIRM, new SkuKeys(order.skuId()).scriptKeys(), List.of(order.orderId())))
                .toList());
    }

    /** @return false when undecided reservations forbid replacing the sale */
    public boolean loadSale(long skuId, int stock, int perUserLimit, long startsAtMs, long endsAtMs) {
        Object outcome = run(LuaScript.LOAD_SALE, skuId, Integer.toString(stock), Integer.toString(perUserLimit),
                Long.toString(startsAtMs), Long.toString(endsAtMs));
        return "LOADED".equals(outcome);
    }

    /** Stock and pending units as Redis holds them now; -1 stock when the sale is not loaded. */
    public RedisSkuState state(long skuId) {
        SkuKeys keys = new SkuKeys(skuId);
        // One read of both (same hash slot): two GETs could straddle a reservation moving units between them.
        List<String> values = lua.redis().mget(keys.stock(), keys.pending());
        String stock = values.get(0);
        String pending = values.get(1);
        return new RedisSkuState(stock == null ? -1 : Long.parseLong(stock), pending == null ? 0 : Long.parseLong(pending));
    }

    /** Units a user holds (reserved or confirmed) according to Redis. */
    public long heldBy(long skuId, String userId) {
        String held = lua.redis().hget(new SkuKeys(skuId).bought(), userId);
        return held == null ? 0 : Long.parseLong(held);
    }

    private Object run(LuaScript script, long skuId, String... args) {
        return lua.run(script, new SkuKeys(skuId).scriptKeys(), List.of(args));
    }

    /** @param stock free units, -1 when the sale is not loaded; @param pending units reserved but undecided */
    public record RedisSkuState(long stock, long pending) {
    }

    /**
     * {@code code} is RESERVED or a refusal; {@code value} is what the buyer may be told with it: the
     * stock left (RESERVED, SOLD_OUT, INSUFFICIENT_STOCK), the limit (QUANTITY_OVER_LIMIT,
     * PURCHASE_LIMIT_REACHED), or the sale's start or end in epoch ms (SALE_NOT_STARTED, SALE_ENDED).
     */
    public record ReserveOutcome(String code, long value) {
    }
}
