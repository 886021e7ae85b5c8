package io.seckill.reconciler.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconciler's periodic jobs, each on a thread of its own: a job that runs long (a rebuild of
 * Redis, a sweep waiting out a MySQL stall) never delays another one's run.
 */
public final class ScheduledJobs implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduledJobs.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final List<ScheduledExecutorService> threads = new ArrayList<>();

    /**
     * Runs {@code job} every {@code interval} (from the end of one run to the start of the next) on a thread named for
     * it.
     */
    public void every(Duration interval, String name, Job.Run job) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread named = new Thread(task, "reconciler " + name);
            named.setDaemon(true);
            return named;
        });
        threads.add(thread);
        // A scheduled task that throws would never run again: each failure is logged instead. Stopped by
        // shutting its thread down, so the future is not needed.
        var _ = thread.scheduleWithFixedDelay(
                () -> {
                    try {
                        job.run();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        LOG.warn(
                                "{} failed; next run in {}",
                                name,
                                interval,
                                e instanceof ExecutionException ? e.getCause() : e);
                    }
                },
                interval.toMillis(),
                interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Runs {@code job} on its schedule, on a thread named for it. */
    public void start(Job job) {
        every(job.interval(), job.name(), job.run());
    }

    /** How many jobs run, each on its own thread. */
    public int size() {
        return threads.size();
    }

    /** Interrupts every job and waits for the running ones to end. */
    @Override
    public void close() {
        threads.forEach(ScheduledExecutorService::shutdownNow);
        try {
            for (ScheduledExecutorService thread : threads) {
                thread.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
