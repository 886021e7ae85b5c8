package io.seckill.ingress.http;

import io.javalin.http.Context;
import io.seckill.redisstate.IdempotencyClaims;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Idempotency-Key}: the first request with a key does the work and its answer is stored; every retry with the
 * same key and the same request gets that same answer, also while the first is still running (it waits for it). The
 * same key with a different request is refused. Server errors are not stored: the retry tries again; nor are refusals
 * (4xx) or answers that changed nothing ({@link Reply#changedNothing()}: the retry finds the same state and gives the
 * same answer), so one client's fresh keys cannot fill Redis with them, except the one refusal a retry must see again
 * (below). Keys expire after the configured time. A request paused past its claim's lease loses the key
 * to a retry; the retry's refusal then passes through the caller's check, since the paused request may still finish
 * what the refusal denies.
 */
public final class IdempotentReplies {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotentReplies.class);
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
     * How long a claim holds: longer than the slowest request can take ({@code longestRequest}: for a buy, the outbox
     * wait, then the fence's), so a retry never runs beside the first; if the first request's process died, the key can
     * be taken over after this. The key is in MySQL with the order besides, so even a claim that lapsed cannot make a
     * second order.
     */
    public static Duration claimTtl(Duration longestRequest) {
        return longestRequest.plus(CLAIM_MARGIN);
    }

    public static String validKey(String raw) {
        if (raw == null) {
            return null;
        }
        if (!KEY.matcher(raw).matches()) {
            throw new Problem(
                    ErrorCode.INVALID_IDEMPOTENCY_KEY, HEADER + " must be 1-128 characters of A-Z a-z 0-9 _ . : -");
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

    /**
     * Runs {@code work} once for the key, or answers as the request that ran it did.
     * @param takenOver what a request that took the key over from a lapsed claim does with a refusal before it
     *                  becomes the key's answer: the request that lost the claim may still be running and succeed
     */
    public Reply execute(
            String userId, String key, String fingerprint, Supplier<Reply> work, UnaryOperator<Reply> takenOver) {
        String owner = UUID.randomUUID().toString();
        long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
        Optional<Reply> reply = Optional.empty();
        while (reply.isEmpty()) {
            IdempotencyClaims.Claim claim = claims.claim(userId, key, fingerprint, owner);
            reply = switch (claim.state()) {
                case CLAIMED -> Optional.of(doOnce(userId, key, owner, work, Kept.SUCCESSES));
                // A refusal that passed the caller's check is final (the check fenced the key): retries must see it.
                case TAKEN_OVER -> Optional.of(doOnce(userId, key, owner, () -> {
                    Reply answer = work.get();
                    return answer.status() >= 400 && answer.status() < 500 ? takenOver.apply(answer) : answer;
                }, Kept.SUCCESSES_AND_REFUSALS));
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

    /**
     * {@link #execute(String, String, String, Supplier, UnaryOperator)} for work whose refusals a late first request
     * cannot contradict.
     */
    public Reply execute(String userId, String key, String fingerprint, Supplier<Reply> work) {
        return execute(userId, key, fingerprint, work, UnaryOperator.identity());
    }

    /** Which answers are kept for the key's retries. */
    private enum Kept {
        /** 2xx only: a refusal changed nothing, so a retry may do the work again (and learn what is true by then). */
        SUCCESSES,
        /** 2xx and 4xx: the refusal was made final where the work's state lives. */
        SUCCESSES_AND_REFUSALS
    }

    private Reply doOnce(String userId, String key, String owner, Supplier<Reply> work, Kept kept) {
        Reply reply;
        try {
            reply = work.get();
        } catch (RuntimeException e) {
            claims.abandon(userId, key, owner);
            throw e;
        }
        boolean keep = !reply.changedNothing() && switch (kept) {
            case SUCCESSES -> reply.status() < 400;
            case SUCCESSES_AND_REFUSALS -> reply.status() < 500;
        };
        if (keep) {
            store(userId, key, owner, reply);
        } else {
            claims.abandon(userId, key, owner);
        }
        return reply;
    }

    /**
     * Keeps the reply for the key's retries. The work is done whatever happens here, so the reply goes to the client
     * even when Redis cannot take it (an order recorded must never be answered as a failure): the claim then lapses,
     * and the retry that takes it over learns the truth where the work left it (a buy's order, by its key in MySQL).
     */
    private void store(String userId, String key, String owner, Reply reply) {
        try {
            if (!claims.complete(userId, key, owner, reply.stored())) {
                LOG.info(
                        "{} {}: this request's claim lapsed and another took the key over; its answer stands",
                        HEADER,
                        key);
            }
        } catch (RuntimeException redisDown) {
            LOG.warn(
                    "{} {}: the reply ({}) is answered but not kept for retries: {}",
                    HEADER,
                    key,
                    reply.status(),
                    redisDown.toString());
        }
    }

    private static void awaitFirst(long deadline, String key) {
        if (System.nanoTime() - deadline > 0) {
            throw new Problem(
                    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
                    "the first request with " + HEADER + " " + key + " is still running");
        }
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Problem(ErrorCode.SERVICE_UNAVAILABLE, "interrupted");
        }
    }
}
