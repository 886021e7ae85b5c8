package io.seckill.reconciler.lifecycle;

import io.seckill.config.Env;
import java.time.Duration;

/**
 * The payment deadlines' settings: how often overdue orders are expired and how many a batch takes. What each means
 * and its default are in docs/configuration.md.
 */
public record LifecycleSettings(Duration expiryInterval, int expiryBatch) {

    public static LifecycleSettings from(Env env) {
        return new LifecycleSettings(env.millis("SECKILL_EXPIRY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_EXPIRY_BATCH", 500));
    }
}
