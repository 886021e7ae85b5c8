package io.seckill.ingress.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.seckill.ingress.http.RateLimits;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The tokens this instance refused lately, counted per client address in memory: an address past {@code perWindow}
 * refusals in a {@code window} has its next tokens refused unread until its count drains, so a flood of forged or
 * altered tokens costs a map lookup each, never a signature check, Redis or the verified-token cache. Counted by the
 * generic cell rate algorithm (one number per address: when its count will have drained), each refusal adding
 * {@code window / perWindow}. Only refusals count: any number of valid tokens read at once from one address (a campus,
 * a carrier-grade NAT, the moment a sale opens) spend nothing. The budget is checked before a token is read and a
 * refusal counted after, so a flood past it is read at most once per connection it keeps in flight. Kept in this
 * instance alone, because a shared counter would put a network call in front of the cheap path it guards.
 */
public final class TokenRefusals {

    /** Addresses tracked at once; past this the least recently seen are forgotten first. */
    static final long ADDRESSES = 100_000;

    private final Cache<String, AtomicLong> drainedAt;
    private final long perRefusalNanos;
    /** How far ahead of now the count may drain and a token still be read: a full budget's worth less one cell. */
    private final long toleranceNanos;
    private final LongSupplier nanoTime;

    /** The per-address count of refused tokens {@code limits} set. */
    public static TokenRefusals of(RateLimits limits) {
        return new TokenRefusals(limits.refusedTokensPerAddress(), limits.window(), System::nanoTime);
    }

    /** @param perWindow refusals an address may have in {@code window}; 0 counts none (the guard is off) */
    public TokenRefusals(int perWindow, Duration window, LongSupplier nanoTime) {
        this.perRefusalNanos = perWindow > 0 ? window.toNanos() / perWindow : 0;
        this.toleranceNanos = window.toNanos() - perRefusalNanos;
        this.nanoTime = nanoTime;
        this.drainedAt = Caffeine.newBuilder().maximumSize(ADDRESSES).expireAfterAccess(window).build();
    }

    /**
     * @return zero when a token of {@code address} may be read ({@link #refused} follows if it is refused), else how
     *         long the address must wait before a token of it is read again
     */
    public Duration wait(String address) {
        if (perRefusalNanos == 0) {
            return Duration.ZERO;
        }
        AtomicLong drained = drainedAt.getIfPresent(address);
        if (drained == null) {
            return Duration.ZERO;
        }
        long now = nanoTime.getAsLong();
        long ahead = Math.max(drained.get(), now) - now;
        return ahead > toleranceNanos ? Duration.ofNanos(ahead - toleranceNanos) : Duration.ZERO;
    }

    /** A token of {@code address} was read and refused: one cell of its budget spent. */
    public void refused(String address) {
        if (perRefusalNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        drainedAt.get(address, _ -> new AtomicLong(now))
                .accumulateAndGet(now, (drained, at) -> Math.max(drained, at) + perRefusalNanos);
    }
}
