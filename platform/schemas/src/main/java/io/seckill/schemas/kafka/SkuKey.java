package io.seckill.schemas.kafka;

/** Records are keyed by the SKU id as a decimal string: one SKU, one partition, one order. */
public final class SkuKey {

    private SkuKey() {
    }

    public static String of(long skuId) {
        return Long.toString(skuId);
    }
}
