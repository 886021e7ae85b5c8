package io.seckill.redisstate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * Rate limits per buyer and per client address, each counter one key by the generic cell rate algorithm
 * ({@code rate-limit.lua}): a limit of L per window lets L requests through at once, then one every window / L. A
 * buyer's counter is tagged by the buyer and an address's by the address, so on Redis Cluster each lives in a slot
 * of its own and no key is touched by every request; the two are asked together (one pipeline to each primary) and
 * a request counts against both only when both admit it: the side that admitted a refused request gives its cell
 * back.
 */
public final class RateLimitCounters {

    /** Which routes a count is for: each has its own limits and its own counts. */
    public enum Scope {
        /** Buying. */
        BUY("buy"),
        /** A buyer's own orders: their status, the list, payment and cancellation. */
        ORDERS("orders"),
        /** Sale-pass challenges and passes. */
        PASS("pass"),
        /** A waiting room: joining it and asking where one stands. */
        QUEUE("queue");

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
     * @return 0 when admitted (and counted), else the milliseconds until the side that refused admits again
     */
    public long admit(Scope scope, String userId, String address, Duration window, int perUser, int perAddress) {
        List<ScriptCall> checks = new ArrayList<>(2);
        if (perUser > 0) {
            checks.add(check(GlobalKeys.userRate(scope.keyPart(), userId), perUser, window));
        }
        if (perAddress > 0) {
            checks.add(check(GlobalKeys.addressRate(scope.keyPart(), address), perAddress, window));
        }
        List<Object> replies = lua.runAll(checks);
        long longestWait = 0;
        for (Object reply : replies) {
            longestWait = Math.max(longestWait, ((Number) ((List<?>) reply).get(0)).longValue());
        }
        if (longestWait > 0) {
            giveBack(checks, replies);
        }
        return longestWait;
    }

    private static ScriptCall check(String counter, int limit, Duration window) {
        return new ScriptCall(
                LuaScript.RATE_LIMIT,
                List.of(counter),
                List.of(Integer.toString(limit), Long.toString(window.toMillis())));
    }

    /** The cells the admitting sides took for a request the other side refused. */
    private void giveBack(List<ScriptCall> checks, List<Object> replies) {
        List<ScriptCall> refunds = new ArrayList<>(1);
        for (int i = 0; i < checks.size(); i++) {
            List<?> reply = (List<?>) replies.get(i);
            if (((Number) reply.get(0)).longValue() == 0) {
                ScriptCall admitted = checks.get(i);
                refunds.add(new ScriptCall(LuaScript.RATE_REFUND, admitted.keys(),
                        List.of((String) reply.get(1), admitted.args().get(0), admitted.args().get(1))));
            }
        }
        lua.runAll(refunds);
    }

    /**
     * Deletes the counters of these buyers and addresses in {@code scope}: for requests that are to leave no trace (the
     * ingress's warm-up). One key per call, as each may live on a shard of its own.
     */
    public void forget(Scope scope, Collection<String> userIds, Collection<String> addresses) {
        Stream.concat(
                        userIds.stream().map(userId -> GlobalKeys.userRate(scope.keyPart(), userId)),
                        addresses.stream().map(address -> GlobalKeys.addressRate(scope.keyPart(), address)))
                .forEach(lua.redis()::del);
    }
}
