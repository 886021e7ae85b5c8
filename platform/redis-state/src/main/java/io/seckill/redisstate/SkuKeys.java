package io.seckill.redisstate;

import java.util.List;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Redis key names of one stock bucket of a SKU. A SKU's stock is split over 1 to {@value #MOST_BUCKETS} buckets ({@link
 * SaleLayout}); each bucket is a whole small sale of its own (its share of the stock, a copy of the sale's terms, the
 * ledger and per-buyer counts of the buyers homed on it), and all of one bucket's keys share one hash tag, so every
 * script works unchanged on Redis Cluster. A SKU of one bucket keeps the tag {@code {sku:ID}}; bucket {@code i} of
 * {@code n > 1} has a tag of its own ({@code {sku:ID:b<i>of<n>.<nonce>}}) whose slot lies in the middle of the {@code
 * i}-th of {@code n} equal slot ranges (turned by the SKU's own slot, so different SKUs' first buckets spread too): on
 * a cluster whose slots are split evenly over its primaries, a SKU of as many buckets as primaries has one bucket on
 * each.
 *
 * <ul>
 *   <li>{@code stock}: units still free to reserve in this bucket (integer, never negative)</li>
 *   <li>{@code sale}: hash of limit, startsAt, endsAt (epoch ms), version, passRequired and generation (the load or
 *       rebuild that wrote the buckets); its limit's presence means "loaded"</li>
 *   <li>{@code bought}: hash userId -> units the user holds (reserved or confirmed), for the buyers homed here</li>
 *   <li>{@code ledger}: hash orderId -> "userId|quantity|reservedAtMs", reservations not yet decided</li>
 *   <li>{@code pending}: sum of the ledger's quantities, kept by the scripts</li>
 *   <li>{@code adjustments}: ids of the stock adjustments and returned orders applied here (each once)</li>
 *   <li>{@code outgoing}: hash transferId -> "toBucket|units|atMs", units taken from here for another bucket and not
 *       yet known to have arrived</li>
 *   <li>{@code incoming}: set of the transfer ids applied here (a transfer adds its units once)</li>
 *   <li>{@code queue}: hash userId -> the place in this bucket's line of a buyer waiting for the sale ({@code 0}: in
 *       the pre-queue)</li>
 *   <li>{@code queue-counts}: hash of {@code pre} (buyers in the pre-queue) and {@code arrived} (buyers lined up)</li>
 * </ul>
 * The SKU's rebuild lock, its token counter, its {@link #layout} and its waiting {@link #room} live under
 * {@code {sku:ID}}, whatever its buckets.
 */
public final class SkuKeys {

    public static final int MOST_BUCKETS = 64;

    private final long skuId;
    private final int bucket;
    private final int buckets;
    private final String prefix;

    public SkuKeys(long skuId, int bucket, int buckets) {
        if (buckets < 1 || buckets > MOST_BUCKETS || bucket < 0 || bucket >= buckets) {
            throw new IllegalArgumentException(
                    "bucket " + bucket + " of " + buckets + " (1 to " + MOST_BUCKETS + " buckets)");
        }
        this.skuId = skuId;
        this.bucket = bucket;
        this.buckets = buckets;
        this.prefix = buckets == 1 ? home(skuId) : "seckill:{" + tag(skuId, bucket, buckets) + "}:";
    }

    /** The one bucket of a SKU whose stock is not split. */
    public SkuKeys(long skuId) {
        this(skuId, 0, 1);
    }

    public long skuId() {
        return skuId;
    }

    /** This bucket's index, 0 to {@link #buckets()} - 1. */
    public int bucket() {
        return bucket;
    }

    public int buckets() {
        return buckets;
    }

    public String stock() {
        return prefix() + "stock";
    }

    public String sale() {
        return prefix() + "sale";
    }

    public String bought() {
        return prefix() + "bought";
    }

    public String ledger() {
        return prefix() + "ledger";
    }

    public String pending() {
        return prefix() + "pending";
    }

    /** Ids of the stock adjustments applied to this bucket (each once). */
    public String adjustments() {
        return prefix() + "adjustments";
    }

    public String outgoing() {
        return prefix() + "outgoing";
    }

    public String incoming() {
        return prefix() + "incoming";
    }

    /** This bucket's buyers waiting to be admitted to the sale, each with their place. */
    public String queue() {
        return prefix() + "queue";
    }

    /** How many of this bucket's buyers joined the pre-queue, and how many lined up after the start. */
    public String queueCounts() {
        return prefix() + "queue-counts";
    }

    /**
     * The token of the latest rebuilder to begin this bucket (restore-sale.lua): outside the sale's keys, so it
     * outlives their deletion.
     */
    public String rebuildFence() {
        return prefix() + "rebuild-fence";
    }

    public String rebuildLock() {
        return home(skuId) + "rebuild-lock";
    }

    public String rebuildTokens() {
        return home(skuId) + "rebuild-tokens";
    }

    /**
     * How many buckets the SKU's stock is split over ("buckets|version", {@link SaleLayout#bucketsRecorded}); absent
     * means one.
     */
    public static String layout(long skuId) {
        return home(skuId) + "layout";
    }

    /**
     * The SKU's waiting room: its admission rate, window and bucket count as defined (a copy of the sale's, so that an
     * ingress reads a room in one call, whatever slots its sale's buckets are in), and how many buyers it has admitted
     * so far (in thousandths) as of when; absent for a sale without one.
     */
    public static String room(long skuId) {
        return home(skuId) + "room";
    }

    /** The KEYS argument every script of {@link LuaScript} takes, in this order. */
    public List<String> scriptKeys() {
        return List.of(stock(), sale(), bought(), ledger(), pending(), adjustments(), outgoing(), incoming());
    }

    private String prefix() {
        return prefix;
    }

    private static String home(long skuId) {
        return "seckill:{sku:" + skuId + "}:";
    }

    /** The first tag of this bucket whose slot lies in the middle half of its slot range. */
    private static String tag(long skuId, int bucket, int buckets) {
        int turn = JedisClusterCRC16.getSlot("sku:" + skuId) * buckets / RedisPrimaries.SLOTS;
        int range = (turn + bucket) % buckets;
        int from = RedisPrimaries.SLOTS * range / buckets;
        int width = RedisPrimaries.SLOTS * (range + 1) / buckets - from;
        for (int nonce = 0; ; nonce++) {
            String tag = "sku:" + skuId + ":b" + bucket + "of" + buckets + "." + nonce;
            int offset = JedisClusterCRC16.getSlot(tag) - from;
            if (offset >= width / 4 && offset < width - width / 4) {
                return tag;
            }
        }
    }

    @Override
    public String toString() {
        return "SKU " + skuId + " bucket " + bucket + " of " + buckets;
    }
}
