package io.seckill.reconciler.lifecycle;

import io.seckill.config.Env;
import io.seckill.mysqlstate.Outbox;
import java.time.Duration;

/**
 * The payment deadlines' settings: how often overdue orders are expired and how many a batch takes, and how long an
 * expiry's event waits for its direct publish before the relay sends it ({@code SECKILL_RELAY_GRACE_MS}, the relays'
 * grace). What each means and its default are in docs/configuration.md.
 */
public record LifecycleSettings(Duration expiryInterval, int expiryBatch, Duration eventGrace) {

    public static LifecycleSettings from(Env env) {
        return new LifecycleSettings(env.millis("SECKILL_EXPIRY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_EXPIRY_BATCH", 500), Outbox.relayGrace(env));
    }
}
