package io.seckill.ingress.admin;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How many refused admin attempts this ingress writes to the audit table: at most {@code perWindow} in each
 * {@code window} (a fixed window, all addresses together), so a client that sends refused attempts as fast as it can
 * makes a bounded number of rows and log lines; the rest are counted ({@code seckill.admin.refusals.unaudited}).
 */
final class RefusalBudget {

    private final int perWindow;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private long windowStartedAt;
    private int spent;

    RefusalBudget(int perWindow, Duration window, LongSupplier nanoTime) {
        this.perWindow = perWindow;
        this.windowNanos = window.toNanos();
        this.nanoTime = nanoTime;
        this.windowStartedAt = nanoTime.getAsLong();
    }

    /** @return whether one more refused attempt may be recorded now (and spends it) */
    synchronized boolean take() {
        long now = nanoTime.getAsLong();
        if (now - windowStartedAt >= windowNanos) {
            windowStartedAt = now;
            spent = 0;
        }
        if (spent >= perWindow) {
            return false;
        }
        spent++;
        return true;
    }
}
