package io.seckill.redisstate;

import java.util.List;
import java.util.stream.IntStream;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * How a SKU's stock is split: into how many buckets, and which bucket is each buyer's home. A buyer always reserves in
 * their home bucket, which holds their count of units: the per-buyer limit is checked in one place, however their
 * requests are spread. A home bucket that runs short borrows units from the others ({@link SaleStore#reserve}).
 */
public final class SaleLayout {

    private final long skuId;
    private final List<SkuKeys> buckets;

    public SaleLayout(long skuId, int buckets) {
        this.skuId = skuId;
        this.buckets = IntStream.range(0, buckets).mapToObj(bucket -> new SkuKeys(skuId, bucket, buckets)).toList();
    }

    public long skuId() {
        return skuId;
    }

    public int buckets() {
        return buckets.size();
    }

    public SkuKeys bucket(int index) {
        return buckets.get(index);
    }

    public List<SkuKeys> all() {
        return buckets;
    }

    /** The bucket count a SKU's layout key holds ({@code buckets|version}), or 0 when it holds none. */
    public static int bucketsRecorded(String layout) {
        return layout == null ? 0 : Integer.parseInt(layout.substring(0, layout.indexOf('|')));
    }

    /**
     * How many buckets a sale's stock is split over: as many as asked, or when nobody asked, one per Redis primary
     * (so a cluster's primaries share a hot SKU), never more than the stock (a bucket without a unit only borrows).
     */
    public static int chosen(Integer requested, int stock, int primaries) {
        if (requested != null) {
            return requested;
        }
        return Math.max(1, Math.min(Math.min(primaries, stock), SkuKeys.MOST_BUCKETS));
    }

    /** The bucket a buyer reserves in, settles in and is counted in: the same in every process. */
    public SkuKeys homeOf(String userId) {
        return buckets.size() == 1 ? buckets.get(0) : buckets.get(JedisClusterCRC16.getCRC16(userId) % buckets.size());
    }

    /** {@code units} split as evenly as they go: the first {@code units % buckets} buckets hold one more. */
    public int share(int units, int bucket) {
        return units / buckets.size() + (bucket < units % buckets.size() ? 1 : 0);
    }

    @Override
    public String toString() {
        return "SKU " + skuId + " in " + buckets.size() + " bucket(s)";
    }
}
