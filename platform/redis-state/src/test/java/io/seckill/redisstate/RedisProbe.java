package io.seckill.redisstate;

import redis.clients.jedis.UnifiedJedis;

/** What tests read from Redis beside the stores' own API: a buyer's units of a SKU, straight from its keys. */
public final class RedisProbe {

    private final UnifiedJedis redis;

    public RedisProbe(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Units the buyer holds (reserved or confirmed) in any bucket of the SKU, 0 when none. */
    public long heldBy(long skuId, String userId) {
        long held = 0;
        for (SkuKeys bucket : layout(skuId).all()) {
            String units = redis.hget(bucket.bought(), userId);
            held += units == null ? 0 : Long.parseLong(units);
        }
        return held;
    }

    /** The SKU's layout as Redis records it. */
    public SaleLayout layout(long skuId) {
        return new SaleLayout(skuId, Math.max(1, SaleLayout.bucketsRecorded(redis.get(SkuKeys.layout(skuId)))));
    }
}
