package io.seckill.ingress;

import io.seckill.runtime.LuaRunner;
import io.seckill.schemas.redis.GlobalKeys;
import io.seckill.schemas.redis.LuaScript;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Admits a buy only if both the buyer and the client address are under their limit (one atomic script).
 * Each admitted request is a member of the sorted sets, named by 64 random bits from the thread's own
 * generator: the name only has to differ from the others in one window; it needs no SecureRandom (one
 * lock shared by every request thread, as {@link OrderIds} explains).
 */
final class RateLimiter {

    private final LuaRunner lua;
    private final IngressConfig.RateLimits limits;
    private final Clock clock;
    private final IngressMetrics metrics;

    RateLimiter(LuaRunner lua, IngressConfig.RateLimits limits, Clock clock, IngressMetrics metrics) {
        this.lua = lua;
        this.limits = limits;
        this.clock = clock;
        this.metrics = metrics;
    }

    void admit(String userId, String address) {
        if (!limits.enabled()) {
            return;
        }
        long waitMs = (Long) lua.run(LuaScript.RATE_LIMIT,
                List.of(GlobalKeys.userRate(userId), GlobalKeys.addressRate(address)),
                List.of(Long.toString(clock.millis()), Long.toString(limits.window().toMillis()),
                        Integer.toString(limits.perUser()), Integer.toString(limits.perAddress()),
                        Long.toHexString(ThreadLocalRandom.current().nextLong())));
        if (waitMs > 0) {
            metrics.rateLimited();
            long seconds = Math.max(1, (waitMs + 999) / 1000);
            throw new Problem(ErrorCode.RATE_LIMITED, "too many requests; retry after " + seconds + " s")
                    .with(Json.RETRY_AFTER_SECONDS, seconds);
        }
    }
}
