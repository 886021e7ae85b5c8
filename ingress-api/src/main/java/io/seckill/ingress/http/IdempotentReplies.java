package io.seckill.ingress.http;

import io.javalin.http.Context;
import io.seckill.redisstate.IdempotencyClaims;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code Idempotency-Key}: the first request with a key does the work and its answer is stored; every
 * retry with the same key and the same request gets that same answer, also while the first is still
 * running (it waits for it). The same key with a different request is refused. Server errors are not
 * stored: the retry tries again. Keys expire after the configured time.
 */
public final class IdempotentReplies {

    public static final String HEADER = "Idempotency-Key";
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Duration CLAIM_MARGIN = Duration.ofSeconds(15);
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(10);
    private static final long POLL_MS = 10;

    private final IdempotencyClaims claims;

    public IdempotentReplies(IdempotencyClaims claims) {
        this.claims = claims;
    }

    /**
     * How long a claim holds: longer than the slowest request can take ({@code longestRequest}: for a
     * buy, the outbox wait, then the fence's), so a retry never runs beside the first; if the first request's process died, the key
     * frees itself after this. The key is in MySQL with the order besides, so even a claim that
     * expired cannot make a second order.
     */
    public static Duration claimTtl(Duration longestRequest) {
        return longestRequest.plus(CLAIM_MARGIN);
    }

    public static String validKey(String raw) {
        if (raw == null) {
            return null;
        }
        if (!KEY.matcher(raw).matches()) {
            throw new Problem(ErrorCode.INVALID_IDEMPOTENCY_KEY, HEADER + " must be 1-128 characters of A-Z a-z 0-9 _ . : -");
        }
        return raw;
    }

    /** What makes two requests "the same" for an idempotency key: method, path and body. */
    public static String fingerprint(Context ctx) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((ctx.method() + " " + ctx.path() + "\n").getBytes(StandardCharsets.UTF_8));
            sha.update(ctx.bodyAsBytes());
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public Reply execute(String userId, String key, String fingerprint, Supplier<Reply> work) {
        long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
        Optional<Reply> reply = Optional.empty();
        while (reply.isEmpty()) {
            IdempotencyClaims.Claim claim = claims.claim(userId, key, fingerprint);
            reply = switch (claim.state()) {
                case CLAIMED -> Optional.of(doOnce(userId, key, work));
                case DONE -> Optional.of(Reply.of(claim.reply()));
                case MISMATCH -> throw new Problem(ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        HEADER + " " + key + " was used for a different request");
                case IN_PROGRESS -> {
                    awaitFirst(deadline, key);
                    yield Optional.empty();
                }
            };
        }
        return reply.get();
    }

    private Reply doOnce(String userId, String key, Supplier<Reply> work) {
        Reply reply;
        try {
            reply = work.get();
        } catch (RuntimeException e) {
            claims.abandon(userId, key);
            throw e;
        }
        if (reply.status() >= 500) {
            claims.abandon(userId, key);
            return reply;
        }
        claims.complete(userId, key, reply.stored());
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
