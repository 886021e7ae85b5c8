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
 * {@code window / perWindow}. A token's cell is taken before it is read and given back if it proves valid, so requests
 * read at once cannot together exceed the budget. Kept in this instance alone, because a shared counter would put a
 * network call in front of the cheap path it guards.
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
     * Takes a cell of {@code address}'s budget for a token about to be read.
     *
     * @return zero when the token may be read (and {@link #valid} must follow if it proves valid), else how long the
     *         address must wait before a token of it is read again
     */
    public Duration take(String address) {
        if (perRefusalNanos == 0) {
            return Duration.ZERO;
        }
        long now = nanoTime.getAsLong();
        AtomicLong drained = drainedAt.get(address, _ -> new AtomicLong(now));
        while (true) {
            long current = drained.get();
            long from = Math.max(current, now);
            if (from - now > toleranceNanos) {
                return Duration.ofNanos(from - now - toleranceNanos);
            }
            if (drained.compareAndSet(current, from + perRefusalNanos)) {
                return Duration.ZERO;
            }
        }
    }

    /** The token read after {@link #take} was valid: its cell goes back. */
    public void valid(String address) {
        if (perRefusalNanos == 0) {
            return;
        }
        AtomicLong drained = drainedAt.getIfPresent(address);
        if (drained != null) {
            drained.addAndGet(-perRefusalNanos);
        }
    }
}
