package io.seckill.redisstate;

import redis.clients.jedis.UnifiedJedis;

/** What tests read from Redis beside the stores' own API: a buyer's units of a SKU, straight from its key. */
public final class RedisProbe {

    private final UnifiedJedis redis;

    public RedisProbe(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Units the buyer holds (reserved or confirmed), 0 when none. */
    public long heldBy(long skuId, String userId) {
        String held = redis.hget(new SkuKeys(skuId).bought(), userId);
        return held == null ? 0 : Long.parseLong(held);
    }
}
