package io.seckill.ingress.http;

import io.seckill.ingress.IngressConfig;
import io.seckill.ingress.IngressMetrics;
import io.seckill.redisstate.RateLimitCounters;
import java.time.Clock;

/** Admits a buy only if both the buyer and the client address are under their limit (one atomic script). */
public final class RateLimiter {

    private final RateLimitCounters counters;
    private final IngressConfig.RateLimits limits;
    private final Clock clock;
    private final IngressMetrics metrics;

    public RateLimiter(RateLimitCounters counters, IngressConfig.RateLimits limits, Clock clock, IngressMetrics metrics) {
        this.counters = counters;
        this.limits = limits;
        this.clock = clock;
        this.metrics = metrics;
    }

    public void admit(String userId, String address) {
        if (!limits.enabled()) {
            return;
        }
        long waitMs = counters.admit(userId, address, clock.millis(), limits.window(), limits.perUser(), limits.perAddress());
        if (waitMs > 0) {
            metrics.rateLimited();
            long seconds = Math.max(1, (waitMs + 999) / 1000);
            throw new Problem(ErrorCode.RATE_LIMITED, "too many requests; retry after " + seconds + " s")
                    .with(Json.RETRY_AFTER_SECONDS, seconds);
        }
    }
}
