package io.seckill.runtime;

import io.seckill.schemas.redis.LuaScript;
import io.seckill.schemas.redis.SkuKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A SKU's sale state in Redis, changed only through the Lua scripts of {@link LuaScript}, so every
 * change is one atomic step. Scripts run by SHA; a server that lost its script cache gets the source.
 */
public final class SaleStore {

    private final UnifiedJedis redis;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);

    public SaleStore(UnifiedJedis redis) {
        this.redis = redis;
        for (LuaScript script : LuaScript.values()) {
            shas.put(script, sha1(script.source()));
        }
    }

    /** @return RESERVED or the refusal code of {@code reserve.lua} */
    public String reserve(long skuId, String orderId, String userId, int quantity, long nowMs) {
        return (String) run(LuaScript.RESERVE, skuId, orderId, userId, Integer.toString(quantity), Long.toString(nowMs));
    }

    /** Puts a reservation back, at most once per order. @return units returned (0 if none was held) */
    public long release(long skuId, String orderId) {
        return (Long) run(LuaScript.RELEASE, skuId, orderId);
    }

    /** Settles a confirmed reservation, at most once per order. @return units settled (0 if none was held) */
    public long confirm(long skuId, String orderId) {
        return (Long) run(LuaScript.CONFIRM, skuId, orderId);
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
        String stock = redis.get(keys.stock());
        String pending = redis.get(keys.pending());
        return new RedisSkuState(stock == null ? -1 : Long.parseLong(stock), pending == null ? 0 : Long.parseLong(pending));
    }

    /** Units a user holds (reserved or confirmed) according to Redis. */
    public long heldBy(long skuId, String userId) {
        String held = redis.hget(new SkuKeys(skuId).bought(), userId);
        return held == null ? 0 : Long.parseLong(held);
    }

    private Object run(LuaScript script, long skuId, String... args) {
        List<String> keys = new SkuKeys(skuId).scriptKeys();
        List<String> argv = List.of(args);
        try {
            return redis.evalsha(shas.get(script), keys, argv);
        } catch (JedisNoScriptException e) {
            return redis.eval(script.source(), keys, argv);
        }
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    /** @param stock free units, -1 when the sale is not loaded; @param pending units reserved but undecided */
    public record RedisSkuState(long stock, long pending) {
    }
}
