package io.seckill.ingress.skus;

import io.seckill.ingress.http.Reply;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which SKUs this instance has recently seen sold out, so the many who lose are answered without
 * Redis. An entry lives for a short, fixed time and is then checked against Redis again: stock that
 * comes back (compensation, cancellation, top-up) is sold again by every instance within that time,
 * without any message having to reach it. Each entry keeps the answer, rendered once, so the
 * losers' path does no JSON work either.
 */
public final class SoldOutMemory {

    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Map<Long, Entry> soldOut = new ConcurrentHashMap<>();

    public SoldOutMemory(Duration ttl, LongSupplier nanoTime) {
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    /** @return the remembered sold-out answer, or null when this SKU must be asked of Redis */
    public Reply answerFor(long skuId) {
        Entry entry = soldOut.get(skuId);
        if (entry == null) {
            return null;
        }
        if (nanoTime.getAsLong() - entry.until() < 0) {
            return entry.answer();
        }
        soldOut.remove(skuId, entry);
        return null;
    }

    /** Stock came back through this instance (a released reservation, an admin's addition): sell again at once. */
    public void forget(long skuId) {
        soldOut.remove(skuId);
    }

    public void remember(long skuId, Reply answer) {
        if (ttlNanos > 0) {
            soldOut.put(skuId, new Entry(nanoTime.getAsLong() + ttlNanos, answer));
        }
    }

    private record Entry(long until, Reply answer) {
    }
}
