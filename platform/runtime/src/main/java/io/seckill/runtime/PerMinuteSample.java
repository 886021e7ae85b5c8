package io.seckill.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the first {@code perMinute} of each kind of event in every minute and lets the rest go: for records whose every
 * copy proves nothing more than the first (a flood forged with a stolen credential), so that what they cost downstream
 * (a dead letter, a row, a log line) stays bounded whoever sends them. Each kind's let-go events are said in one log
 * line when its next minute starts, and the moment a minute's sample is full is said at once, so every event is either
 * logged by its keeper or covered by a line saying that more are being counted only. Kinds must be few and fixed (a
 * topic and a reason), never a value a record chose.
 */
public final class PerMinuteSample {

    private static final Logger LOG = LoggerFactory.getLogger(PerMinuteSample.class);
    private static final long MINUTE = Duration.ofMinutes(1).toNanos();

    private final String what;
    private final int perMinute;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /** @param what what the events are, for the log line (e.g. "refused records dead-lettered") */
    public PerMinuteSample(String what, int perMinute, LongSupplier nanoTime) {
        this.what = what;
        this.perMinute = perMinute;
        this.nanoTime = nanoTime;
    }

    /** @return whether this event of {@code kind} is kept (within the minute's first {@code perMinute}) */
    public boolean keep(String kind) {
        long now = nanoTime.getAsLong();
        Window window = windows.compute(kind, (_, current) -> {
            if (current != null && now - current.startedAt < MINUTE) {
                return current.counted();
            }
            if (current != null && current.events > perMinute) {
                LOG.warn(
                        "{} ({}): {} more in the minute past were counted, not kept",
                        what,
                        kind,
                        current.events - perMinute);
            }
            return new Window(now, 1);
        });
        if (window.events == perMinute + 1) {
            LOG.warn("{} ({}): the minute's {} kept; more in this minute are counted, not kept", what, kind, perMinute);
        }
        return window.events <= perMinute;
    }

    private record Window(long startedAt, long events) {

        Window counted() {
            return new Window(startedAt, events + 1);
        }
    }
}
