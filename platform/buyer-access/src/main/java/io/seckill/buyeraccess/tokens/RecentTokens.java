package io.seckill.buyeraccess.tokens;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;

/**
 * Tokens verified lately, by their SHA-256 digest, with whom they name: a buyer shows the same token on every request
 * of a sale (challenge, pass, buy, retries, status), and its signature and claims checked once are checked for good. An
 * entry is used only until its token's own expiry (the clock skew included) and no longer than {@code trust} after it
 * was verified, the time a provider's key is trusted after its last fetch, so a key withdrawn from the JWKS stops
 * vouching for its tokens here as soon as it would there; both are checked on every use against the clock the verifier
 * reads. Only tokens that passed every check are kept; a refused one is verified again each time it is shown. Bounded
 * by bytes, not count: an entry's size is its digest's, not its token's, and its subject's.
 */
final class RecentTokens {

    /**
     * What an entry holds besides its subject's characters: the cache's node, the digest key (object and 32-byte
     * array), the verified record, the caller and the subject's string object.
     */
    static final int ENTRY_OVERHEAD_BYTES = 256;

    private final Cache<Digest, Verified> verified;
    private final Duration trust;

    RecentTokens(long maximumBytes, Duration trust) {
        this.trust = trust;
        // Expiry here only frees the memory; whether an entry may still be used is the clock's answer in caller().
        this.verified = Caffeine.newBuilder()
                .maximumWeight(maximumBytes)
                .weigher((Digest digest, Verified entry) ->
                        ENTRY_OVERHEAD_BYTES + 2 * entry.caller().subject().length())
                .expireAfterWrite(trust)
                .build();
    }

    /** @return whom {@code token} names if it was verified lately and is still unexpired at {@code now}, else null */
    Caller caller(String token, Instant now) {
        Digest digest = Digest.of(token);
        Verified known = verified.getIfPresent(digest);
        if (known == null) {
            return null;
        }
        if (now.isAfter(known.usableUntil())) {
            verified.invalidate(digest);
            return null;
        }
        return known.caller();
    }

    /** {@code token} passed every check at {@code now}; {@code expiresAt}: its expiry plus the clock skew. */
    void remember(String token, Caller caller, Instant now, Instant expiresAt) {
        Instant trustedUntil = now.plus(trust);
        verified.put(
                Digest.of(token), new Verified(caller, expiresAt.isBefore(trustedUntil) ? expiresAt : trustedUntil));
    }

    /** The bytes the entries weigh now, by the cache's own account. */
    long weight() {
        verified.cleanUp();
        return verified.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    private record Verified(Caller caller, Instant usableUntil) {
    }

    /**
     * A token's SHA-256, as the key of its entry: equal digests, equal tokens (a collision is not a practical event).
     */
    private record Digest(ByteBuffer bytes) {

        static Digest of(String token) {
            try {
                return new Digest(ByteBuffer.wrap(
                        MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII))));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }
    }
}
