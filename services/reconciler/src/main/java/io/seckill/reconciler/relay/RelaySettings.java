package io.seckill.reconciler.relay;

import io.seckill.config.Env;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.RelayBackoff;
import java.time.Duration;

/**
 * The relays' settings: how their re-sends are spaced and bounded, how often they run and how much each run takes, and
 * how long completed outbox rows are kept. What each means and its default are in docs/configuration.md.
 */
public record RelaySettings(
        RelayBackoff backoff,
        int maxAttempts,
        Duration interval,
        int batch,
        Duration outboxRetention,
        Duration purgeInterval) {

    public static RelaySettings from(Env env) {
        return new RelaySettings(
                new RelayBackoff(
                        Outbox.relayGrace(env), env.millis("SECKILL_RELAY_MAX_BACKOFF_MS", Duration.ofMinutes(5))),
                env.integer("SECKILL_RELAY_MAX_ATTEMPTS", 12),
                env.millis("SECKILL_RELAY_INTERVAL_MS", Duration.ofSeconds(1)),
                env.integer("SECKILL_RELAY_BATCH", 500),
                env.millis("SECKILL_OUTBOX_RETENTION_MS", Duration.ofDays(7)),
                env.millis("SECKILL_OUTBOX_PURGE_INTERVAL_MS", Duration.ofMinutes(1)));
    }
}
