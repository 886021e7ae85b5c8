package io.seckill.ingress.http;

import io.seckill.redisstate.RateLimitCounters;
import java.time.Duration;

/**
 * Requests admitted per buyer and per client address in each {@code window}, for buying and, apart, for a buyer's
 * orders (status, list, payment, cancellation), for sale passes (challenges and passes) and for waiting rooms (joining,
 * standing); the address is the
 * client's as {@code trustedProxies} tell it. Apart from those, in this instance's memory, the tokens refused per
 * address in a window before that address's next tokens are refused unread ({@code refusedTokensPerAddress}, 0: off).
 */
public record RateLimits(Limit buy, Limit orders, Limit pass, Limit queue, Duration window,
                         TrustedProxies trustedProxies, int refusedTokensPerAddress) {

    public Limit of(RateLimitCounters.Scope scope) {
        return switch (scope) {
            case BUY -> buy;
            case ORDERS -> orders;
            case PASS -> pass;
            case QUEUE -> queue;
        };
    }

    /** A limit of 0 switches that side off. */
    public record Limit(int perUser, int perAddress) {
        public boolean enabled() {
            return perUser > 0 || perAddress > 0;
        }
    }
}
