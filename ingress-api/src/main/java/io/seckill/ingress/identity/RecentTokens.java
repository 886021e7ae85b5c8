package io.seckill.ingress.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;

/**
 * Tokens verified lately, by their exact text, with whom they name: a buyer shows the same token on every request of
 * a sale (challenge, pass, buy, retries, status), and its signature and claims checked once are checked for good. An
 * entry is used only until its token's own expiry (the clock skew included) and no longer than {@code trust} after it
 * was verified, the time a provider's key is trusted after its last fetch, so a key withdrawn from the JWKS stops
 * vouching for its tokens here as soon as it would there; both are checked on every use against the clock the
 * verifier reads. Only tokens that passed every check are kept; a refused one is verified again each time it is shown.
 */
final class RecentTokens {

    private final Cache<String, Verified> verified;
    private final Duration trust;

    RecentTokens(long maximumSize, Duration trust) {
        this.trust = trust;
        // Expiry here only frees the memory; whether an entry may still be used is the clock's answer in caller().
        this.verified = Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(trust).build();
    }

    /** @return whom {@code token} names if it was verified lately and is still unexpired at {@code now}, else null */
    Caller caller(String token, Instant now) {
        Verified known = verified.getIfPresent(token);
        if (known == null) {
            return null;
        }
        if (now.isAfter(known.usableUntil())) {
            verified.invalidate(token);
            return null;
        }
        return known.caller();
    }

    /** {@code token} passed every check at {@code now}; {@code expiresAt}: its expiry plus the clock skew. */
    void remember(String token, Caller caller, Instant now, Instant expiresAt) {
        Instant trustedUntil = now.plus(trust);
        verified.put(token, new Verified(caller, expiresAt.isBefore(trustedUntil) ? expiresAt : trustedUntil));
    }

    private record Verified(Caller caller, Instant usableUntil) {
    }
}
