package io.seckill.ingress.http;

import io.javalin.http.Context;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;

/**
 * Admits a request only if both its buyer and its client address are under their limit for the routes it is on
 * (both counters asked at once, each on its own Redis primary); else 429 with {@code Retry-After}. The address is the
 * client's as the trusted proxies tell it, an IPv6 client counted by its /64 ({@link TrustedProxies#countedAs}).
 */
public final class RateLimiter {

    private final RateLimitCounters counters;
    private final RateLimits limits;
    private final IngressMetrics metrics;

    public RateLimiter(RateLimitCounters counters, RateLimits limits, IngressMetrics metrics) {
        this.counters = counters;
        this.limits = limits;
        this.metrics = metrics;
    }

    public void admit(RateLimitCounters.Scope scope, String userId, Context ctx) {
        RateLimits.Limit limit = limits.of(scope);
        if (!limit.enabled()) {
            return;
        }
        long waitMs = counters.admit(
                scope,
                userId,
                TrustedProxies.countedAs(clientAddress(ctx)),
                limits.window(),
                limit.perUser(),
                limit.perAddress());
        if (waitMs > 0) {
            metrics.rateLimited(scope);
            throw limited(waitMs);
        }
    }

    /**
     * The 429 of a client that may ask again in {@code waitMs}, with the whole seconds to wait in {@code Retry-After}.
     */
    public static Problem limited(long waitMs) {
        long seconds = Math.max(1, (waitMs + 999) / 1000);
        return new Problem(ErrorCode.RATE_LIMITED, "too many requests; retry after " + seconds + " s")
                .with(Problem.RETRY_AFTER_SECONDS, seconds);
    }

    public String clientAddress(Context ctx) {
        return limits.trustedProxies().clientAddress(ctx);
    }
}
