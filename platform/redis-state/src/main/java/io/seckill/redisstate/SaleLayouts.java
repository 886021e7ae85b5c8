package io.seckill.redisstate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * The layouts of the SKUs this process has sold or settled, read once from each SKU's layout key and read again when a
 * bucket answers that it is not loaded (a definition or rebuild changed the layout). Only the layouts of real sales are
 * kept (recorded ones, and a sale's that answered a buyer), so requests for made-up SKU ids cannot fill the map.
 */
final class SaleLayouts {

    private final UnifiedJedis redis;
    private final Map<Long, SaleLayout> recorded = new ConcurrentHashMap<>();

    SaleLayouts(UnifiedJedis redis) {
        this.redis = redis;
    }

    SaleLayout of(long skuId) {
        SaleLayout known = recorded.get(skuId);
        return known != null ? known : reread(skuId);
    }

    /** The layout kept for the SKU, or null when it must be read. */
    SaleLayout kept(long skuId) {
        return recorded.get(skuId);
    }

    /** The layout as Redis records it now. */
    SaleLayout reread(long skuId) {
        return read(skuId, redis.get(SkuKeys.layout(skuId)));
    }

    /** The layout a SKU's layout key was just read to hold, kept if recorded. */
    SaleLayout read(long skuId, String layoutKey) {
        int buckets = SaleLayout.bucketsRecorded(layoutKey);
        if (buckets == 0) {
            recorded.remove(skuId);
            return new SaleLayout(skuId, 1);
        }
        SaleLayout known = recorded.get(skuId);
        SaleLayout layout = known != null && known.buckets() == buckets ? known : new SaleLayout(skuId, buckets);
        recorded.put(skuId, layout);
        return layout;
    }

    void remember(SaleLayout layout) {
        recorded.put(layout.skuId(), layout);
    }
}
