package io.seckill.redisstate;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Sliding-window counts of admitted requests per buyer and per client address, checked and counted
 * together in one atomic script. Each admitted request is a member of the sorted sets, named by 64
 * random bits from the thread's own generator: the name only has to differ from the others in one
 * window, so it needs no SecureRandom (one lock every request thread would queue on).
 */
public final class RateLimitCounters {

    /** Which routes a count is for: each has its own limits and its own counts. */
    public enum Scope {
        /** Buying. */
        BUY("buy"),
        /** A buyer's own orders: their status, the list, payment and cancellation. */
        ORDERS("orders"),
        /** Sale-pass challenges and passes. */
        PASS("pass");

        private final String keyPart;

        Scope(String keyPart) {
            this.keyPart = keyPart;
        }

        String keyPart() {
            return keyPart;
        }
    }

    private final LuaRunner lua;

    public RateLimitCounters(LuaRunner lua) {
        this.lua = lua;
    }

    /**
     * Admits the request if both sides are under their limit (a limit of 0 switches that side off).
     * @return 0 when admitted (and counted), else the milliseconds until a slot frees up
     */
    public long admit(Scope scope, String userId, String address, long nowMs, Duration window, int perUser, int perAddress) {
        return (Long) lua.run(LuaScript.RATE_LIMIT,
                List.of(GlobalKeys.userRate(scope.keyPart(), userId), GlobalKeys.addressRate(scope.keyPart(), address)),
                List.of(Long.toString(nowMs), Long.toString(window.toMillis()),
                        Integer.toString(perUser), Integer.toString(perAddress),
                        Long.toHexString(ThreadLocalRandom.current().nextLong())));
    }

    /**
     * Deletes the counters of these buyers and addresses in {@code scope}: for requests that are to leave no trace (the
     * ingress's warm-up). One key per call, as each may live on a shard of its own.
     */
    public void forget(Scope scope, Collection<String> userIds, Collection<String> addresses) {
        Stream.concat(userIds.stream().map(userId -> GlobalKeys.userRate(scope.keyPart(), userId)),
                addresses.stream().map(address -> GlobalKeys.addressRate(scope.keyPart(), address))).forEach(lua.redis()::del);
    }
}
