package io.seckill.reconciler.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The reconciler's jobs run side by side: however many of them are stuck, the others keep their schedule. */
class ScheduledJobsTest {

    /** More jobs than the reconciler has, every one stuck in its first run. */
    private static final int STUCK_JOBS = 16;

    @Test
    void aJobRunsOnScheduleWhileEveryOtherJobIsStuck() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        AtomicInteger stuck = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        try (ScheduledJobs jobs = new ScheduledJobs()) {
            for (int i = 0; i < STUCK_JOBS; i++) {
                jobs.every(Duration.ofMillis(10), "stuck " + i, () -> {
                    stuck.incrementAndGet();
                    released.await();
                });
            }
            jobs.every(Duration.ofMillis(10), "free", runs::incrementAndGet);

            await().atMost(Duration.ofSeconds(10)).until(() -> stuck.get() == STUCK_JOBS);
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 5);
            assertThat(jobs.size()).isEqualTo(STUCK_JOBS + 1);
            released.countDown();
        }
    }

    @Test
    void aJobThatFailsRunsAgainOnSchedule() {
        AtomicInteger runs = new AtomicInteger();
        try (ScheduledJobs jobs = new ScheduledJobs()) {
            jobs.every(Duration.ofMillis(10), "failing", () -> {
                runs.incrementAndGet();
                throw new IllegalStateException("a failing run");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 3);
        }
    }
}
