package io.seckill.ingress.queue;

import io.seckill.config.Env;
import java.time.Duration;

/**
 * A waiting room's timing on this ingress.
 * @param opens how long before a sale's start its buyers may join its room
 * @param refresh how often this ingress reads each room it answers for (its admission, its line, whether the sale
 *                sold out): every buyer's poll is answered from the last read, never from Redis
 */
public record QueueSettings(Duration opens, Duration refresh) {

    public QueueSettings {
        if (opens.isNegative() || !refresh.isPositive()) {
            throw new IllegalArgumentException(
                    "SECKILL_QUEUE_OPENS_MS must be 0 or more and SECKILL_QUEUE_REFRESH_MS more than 0");
        }
    }

    public static QueueSettings from(Env env) {
        return new QueueSettings(
                env.millis("SECKILL_QUEUE_OPENS_MS", Duration.ofMinutes(15)),
                env.millis("SECKILL_QUEUE_REFRESH_MS", Duration.ofSeconds(1)));
    }
}
