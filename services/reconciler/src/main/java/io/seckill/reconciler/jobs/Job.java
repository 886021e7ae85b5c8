package io.seckill.reconciler.jobs;

import java.time.Duration;

/**
 * A repair the reconciler runs on a schedule ({@link ScheduledJobs}): its name (its thread's, and its failures' in the
 * log), how long it waits from the end of one run to the next, and one run. Each job's class makes its own from the
 * reconciler's shared parts.
 */
public record Job(String name, Duration interval, Run run) {

    /** One run; what it throws is logged, and the next run comes on schedule. */
    @FunctionalInterface
    public interface Run {
        void run() throws Exception;
    }
}
