package io.seckill.ingress.warmup;

import io.seckill.config.Env;
import java.time.Duration;

/**
 * How much of the buy path an ingress runs before it serves buyers ({@link BuyPathWarmUp}).
 * @param requests buy requests sent to the warm-up sale; 0 switches the warm-up off
 * @param timeout  the longest the warm-up may hold the start back, whatever is left of {@code requests}
 */
public record WarmUpSettings(int requests, Duration timeout) {

    public static final String REQUESTS = "SECKILL_INGRESS_WARMUP_REQUESTS";
    public static final String TIMEOUT = "SECKILL_INGRESS_WARMUP_TIMEOUT_MS";
    public static final WarmUpSettings OFF = new WarmUpSettings(0, Duration.ZERO);

    public WarmUpSettings {
        if (requests < 0) {
            throw new IllegalArgumentException(REQUESTS + " must be 0 (no warm-up) or more, was " + requests);
        }
    }

    public static WarmUpSettings from(Env env) {
        return new WarmUpSettings(env.integer(REQUESTS, 20_000), env.millis(TIMEOUT, Duration.ofSeconds(20)));
    }

    public boolean enabled() {
        return requests > 0 && timeout.isPositive();
    }
}
