package io.seckill.ingress.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The tokens this instance refused lately, counted per client address in memory: an address past {@code perWindow}
 * refusals in a {@code window} has its next tokens refused unread until its count drains, so a flood of forged or
 * altered tokens costs a map lookup each, never a signature check, Redis or the verified-token cache. Counted by the
 * generic cell rate algorithm (one number per address: when its count will have drained), each refusal adding
 * {@code window / perWindow}; kept in this instance alone, because a shared counter would put a network call in front
 * of the cheap path it guards.
 */
public final class TokenRefusals {

    /** Addresses tracked at once; past this the least recently refused are forgotten first. */
    static final long ADDRESSES = 100_000;

    private final Cache<String, AtomicLong> drainedAt;
    private final long windowNanos;
    private final long perRefusalNanos;
    private final LongSupplier nanoTime;

    /** @param perWindow refusals an address may have in {@code window}; 0 counts none (the guard is off) */
    public TokenRefusals(int perWindow, Duration window, LongSupplier nanoTime) {
        this.windowNanos = window.toNanos();
        this.perRefusalNanos = perWindow > 0 ? windowNanos / perWindow : 0;
        this.nanoTime = nanoTime;
        this.drainedAt = Caffeine.newBuilder().maximumSize(ADDRESSES).expireAfterAccess(window).build();
    }

    /** @return how long {@code address} must wait before a token of it is read again; zero when it may now */
    public Duration waitOf(String address) {
        if (perRefusalNanos == 0) {
            return Duration.ZERO;
        }
        AtomicLong drained = drainedAt.getIfPresent(address);
        // The perWindow-th refusal in a row leaves the count a whole window from drained; one more would pass it.
        long over = drained == null ? 0 : drained.get() - nanoTime.getAsLong() - (windowNanos - perRefusalNanos);
        return over > 0 ? Duration.ofNanos(over) : Duration.ZERO;
    }

    /** A token from {@code address} was refused. */
    public void refused(String address) {
        if (perRefusalNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        drainedAt.get(address, _ -> new AtomicLong(now)).accumulateAndGet(now, (drained, at) -> Math.max(drained, at) + perRefusalNanos);
    }
}
