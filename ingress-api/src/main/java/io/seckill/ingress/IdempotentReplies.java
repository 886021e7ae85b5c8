package io.seckill.ingress;

import io.seckill.runtime.LuaRunner;
import io.seckill.schemas.redis.GlobalKeys;
import io.seckill.schemas.redis.LuaScript;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code Idempotency-Key}: the first request with a key does the work and its answer is stored; every
 * retry with the same key and the same request gets that same answer, also while the first is still
 * running (it waits for it). The same key with a different request is refused. Server errors are not
 * stored: the retry tries again. Keys expire after the configured time.
 */
final class IdempotentReplies {

    static final String HEADER = "Idempotency-Key";
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    /** A claim outlives any request; if its owner died, the key frees itself after this. */
    private static final Duration CLAIM_TTL = Duration.ofSeconds(30);
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(10);
    private static final long POLL_MS = 10;

    private final LuaRunner lua;
    private final Duration ttl;

    IdempotentReplies(LuaRunner lua, Duration ttl) {
        this.lua = lua;
        this.ttl = ttl;
    }

    static String validKey(String raw) {
        if (raw == null) {
            return null;
        }
        if (!KEY.matcher(raw).matches()) {
            throw new Problem(ErrorCode.INVALID_IDEMPOTENCY_KEY, HEADER + " must be 1-128 characters of A-Z a-z 0-9 _ . : -");
        }
        return raw;
    }

    Reply execute(String userId, String key, String fingerprint, Supplier<Reply> work) {
        String redisKey = GlobalKeys.idempotency(userId, key);
        long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
        while (true) {
            List<?> claim = (List<?>) lua.run(LuaScript.IDEMPOTENCY_CLAIM, List.of(redisKey),
                    List.of(fingerprint, Long.toString(CLAIM_TTL.toMillis())));
            switch ((String) claim.get(0)) {
                case "CLAIMED" -> {
                    return doOnce(redisKey, work);
                }
                case "DONE" -> {
                    String location = (String) claim.get(4);
                    String code = (String) claim.get(5);
                    return new Reply(Integer.parseInt((String) claim.get(1)), (String) claim.get(2),
                            ((String) claim.get(3)).getBytes(StandardCharsets.UTF_8), location.isEmpty() ? null : location,
                            code.isEmpty() ? null : code);
                }
                case "MISMATCH" -> throw new Problem(ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        HEADER + " " + key + " was used for a different request");
                default -> awaitFirst(deadline, key);
            }
        }
    }

    private Reply doOnce(String redisKey, Supplier<Reply> work) {
        Reply reply;
        try {
            reply = work.get();
        } catch (RuntimeException e) {
            lua.redis().del(redisKey);
            throw e;
        }
        if (reply.status() >= 500) {
            lua.redis().del(redisKey);
            return reply;
        }
        lua.run(LuaScript.HASH_PUT, List.of(redisKey), List.of(Long.toString(ttl.toMillis()),
                "state", "DONE", "status", Integer.toString(reply.status()), "contentType", reply.contentType(),
                "body", new String(reply.body(), StandardCharsets.UTF_8),
                "location", reply.location() == null ? "" : reply.location(),
                "code", reply.code() == null ? "" : reply.code()));
        return reply;
    }

    private static void awaitFirst(long deadline, String key) {
        if (System.nanoTime() - deadline > 0) {
            throw new Problem(ErrorCode.IDEMPOTENCY_IN_PROGRESS, "the first request with " + HEADER + " " + key + " is still running");
        }
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Problem(ErrorCode.SERVICE_UNAVAILABLE, "interrupted");
        }
    }
}
