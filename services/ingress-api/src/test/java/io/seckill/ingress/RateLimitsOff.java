package io.seckill.ingress;

import java.util.Map;

/**
 * Every rate limit of the ingress switched off: what a test harness sets whose tests send everything from one address
 * and have some buyers hammer on purpose (the rate-limit tests start ingresses of their own).
 */
public final class RateLimitsOff {

    private RateLimitsOff() {
    }

    public static Map<String, String> settings() {
        return Map.of(
                "SECKILL_RATE_LIMIT_PER_USER", "0",
                "SECKILL_RATE_LIMIT_PER_ADDRESS", "0",
                "SECKILL_ORDERS_RATE_LIMIT_PER_USER", "0",
                "SECKILL_ORDERS_RATE_LIMIT_PER_ADDRESS", "0",
                "SECKILL_PASS_RATE_LIMIT_PER_USER", "0",
                "SECKILL_PASS_RATE_LIMIT_PER_ADDRESS", "0",
                "SECKILL_QUEUE_RATE_LIMIT_PER_USER", "0",
                "SECKILL_QUEUE_RATE_LIMIT_PER_ADDRESS", "0",
                "SECKILL_REFUSED_TOKENS_PER_ADDRESS", "0");
    }
}
