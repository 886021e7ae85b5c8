package io.seckill.redisstate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Idempotency keys in Redis: the first request with a key claims it, its reply is stored under it,
 * and every later request with the key learns what became of the first. Stored replies expire after
 * {@code ttl}; a claim whose owner died frees itself after {@code claimTtl}.
 */
public record IdempotencyClaims(LuaRunner lua, Duration ttl, Duration claimTtl) {

    /** Claims the key for this request, or tells what the request that holds it did. */
    public Claim claim(String userId, String key, String fingerprint) {
        List<?> reply = (List<?>) lua.run(LuaScript.IDEMPOTENCY_CLAIM, List.of(GlobalKeys.idempotency(userId, key)),
                List.of(fingerprint, Long.toString(claimTtl.toMillis())));
        ClaimState state = ClaimState.valueOf((String) reply.get(0));
        return switch (state) {
            case CLAIMED, MISMATCH, IN_PROGRESS -> new Claim(state, null);
            case DONE -> new Claim(state, new StoredReply(Integer.parseInt((String) reply.get(1)), (String) reply.get(2),
                    ((String) reply.get(3)).getBytes(StandardCharsets.UTF_8), emptyAsNull((String) reply.get(4)),
                    emptyAsNull((String) reply.get(5))));
        };
    }

    /** Stores the claimed request's reply for every retry until the key expires. */
    public void complete(String userId, String key, StoredReply reply) {
        lua.run(LuaScript.HASH_PUT, List.of(GlobalKeys.idempotency(userId, key)), List.of(Long.toString(ttl.toMillis()),
                "state", "DONE", "status", Integer.toString(reply.status()), "contentType", reply.contentType(),
                "body", new String(reply.body(), StandardCharsets.UTF_8),
                "location", reply.location() == null ? "" : reply.location(),
                "code", reply.code() == null ? "" : reply.code()));
    }

    /** Frees the key: the claimed request stored nothing, so a retry does the work again. */
    public void abandon(String userId, String key) {
        lua.redis().del(GlobalKeys.idempotency(userId, key));
    }

    private static String emptyAsNull(String value) {
        return value.isEmpty() ? null : value;
    }

    public enum ClaimState {
        /** This request holds the key now and must do the work. */
        CLAIMED,
        /** The key was used for a different request. */
        MISMATCH,
        /** The request that holds the key has not finished. */
        IN_PROGRESS,
        /** The request that held the key finished; its reply is stored. */
        DONE
    }

    /** @param reply the stored reply, when DONE */
    public record Claim(ClaimState state, StoredReply reply) {
    }

    /** A complete HTTP answer; {@code location} and {@code code} may be null. */
    // A stored reply is written back as it is, never compared or hashed.
    @SuppressWarnings("ArrayRecordComponent")
    public record StoredReply(int status, String contentType, byte[] body, String location, String code) {
    }
}
