package io.seckill.ingress;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which SKUs this instance has recently seen sold out, so the 99% who lose are answered without
 * Redis. An entry lives for a short, fixed time and is then checked against Redis again: stock that
 * comes back (compensation, cancellation, top-up) is sold again by every instance within that time,
 * without any message having to reach it.
 */
final class SoldOutMemory {

    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Map<Long, Long> soldOutUntil = new ConcurrentHashMap<>();

    SoldOutMemory(Duration ttl, LongSupplier nanoTime) {
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    boolean isSoldOut(long skuId) {
        Long until = soldOutUntil.get(skuId);
        if (until == null) {
            return false;
        }
        if (nanoTime.getAsLong() - until < 0) {
            return true;
        }
        soldOutUntil.remove(skuId, until);
        return false;
    }

    /** Stock came back through this instance (a released reservation): sell again at once. */
    void forget(long skuId) {
        soldOutUntil.remove(skuId);
    }

    void remember(long skuId) {
        if (ttlNanos > 0) {
            soldOutUntil.put(skuId, nanoTime.getAsLong() + ttlNanos);
        }
    }
}
