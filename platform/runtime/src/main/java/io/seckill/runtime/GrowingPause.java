package io.seckill.runtime;

import java.time.Duration;

/**
 * The wait before trying again after a failure: doubled after each failure up to a ceiling, back to
 * the first after a success, so a short outage costs little and a long one is not hammered.
 */
final class GrowingPause {

    private final long firstMillis;
    private final long ceilingMillis;
    private long nextMillis;

    GrowingPause(Duration first, Duration ceiling) {
        this.firstMillis = first.toMillis();
        this.ceilingMillis = ceiling.toMillis();
        this.nextMillis = firstMillis;
    }

    /** How long the next {@link #sleep()} waits. */
    long nextMillis() {
        return nextMillis;
    }

    /** Waits the next pause, then doubles it (up to the ceiling). */
    void sleep() throws InterruptedException {
        Thread.sleep(nextMillis);
        nextMillis = Math.min(nextMillis * 2, ceilingMillis);
    }

    /** After a success: the next failure waits the first pause again. */
    void reset() {
        nextMillis = firstMillis;
    }
}
