package io.seckill.redisstate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Idempotency keys in Redis: the first request with a key claims it, its reply is stored under it,
 * and every later request with the key learns what became of the first. A claim is a lease of
 * {@code claimTtl} held by one request's owner token: once it lapses (the request's process died or
 * was paused past it), a retry takes the key over, and only the request holding the claim can store
 * a reply or free the key. Keys, claimed or answered, expire after {@code ttl}.
 */
public record IdempotencyClaims(LuaRunner lua, Duration ttl, Duration claimTtl) {

    /** Claims the key for the request with this owner token, or tells what the request that holds it did. */
    public Claim claim(String userId, String key, String fingerprint, String owner) {
        List<?> reply = (List<?>) lua.run(LuaScript.IDEMPOTENCY_CLAIM, List.of(GlobalKeys.idempotency(userId, key)),
                List.of(fingerprint, Long.toString(claimTtl.toMillis()), owner, Long.toString(ttl.toMillis())));
        ClaimState state = ClaimState.valueOf((String) reply.get(0));
        return switch (state) {
            case CLAIMED, TAKEN_OVER, MISMATCH, IN_PROGRESS -> new Claim(state, null);
            case DONE ->
                new Claim(
                        state,
                        new StoredReply(
                                Integer.parseInt((String) reply.get(1)),
                                (String) reply.get(2),
                                ((String) reply.get(3)).getBytes(StandardCharsets.UTF_8),
                                emptyAsNull((String) reply.get(4)),
                                emptyAsNull((String) reply.get(5))));
        };
    }

    /**
     * Stores the reply of the request holding the claim for every retry until the key expires.
     * @return false when another request took the claim over: its answer stands
     */
    public boolean complete(String userId, String key, String owner, StoredReply reply) {
        return (Long) lua.run(
                        LuaScript.IDEMPOTENCY_COMPLETE,
                        List.of(GlobalKeys.idempotency(userId, key)),
                        List.of(
                                owner,
                                Long.toString(ttl.toMillis()),
                                Integer.toString(reply.status()),
                                reply.contentType(),
                                new String(reply.body(), StandardCharsets.UTF_8),
                                reply.location() == null ? "" : reply.location(),
                                reply.code() == null ? "" : reply.code()))
                == 1;
    }

    /** Frees the key: the request holding the claim stored nothing, so a retry does the work again. */
    public void abandon(String userId, String key, String owner) {
        lua.run(LuaScript.IDEMPOTENCY_ABANDON, List.of(GlobalKeys.idempotency(userId, key)), List.of(owner));
    }

    private static String emptyAsNull(String value) {
        return value.isEmpty() ? null : value;
    }

    public enum ClaimState {
        /** This request holds the key now and must do the work. */
        CLAIMED,
        /**
         * This request holds the key now, taken over from one whose lease lapsed before it answered: that
         * request may still be running and finish its work.
         */
        TAKEN_OVER,
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
