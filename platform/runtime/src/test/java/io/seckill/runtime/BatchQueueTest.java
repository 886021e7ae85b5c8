package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class BatchQueueTest {

    private record Echo(int value, CompletableFuture<Integer> result) implements BatchQueue.Job {
        Echo(int value) {
            this(value, new CompletableFuture<>());
        }
    }

    @Test
    void jobsThatQueueUpWhileABatchRunsGoOutTogetherAndEachGetsItsOwnResult() throws Exception {
        List<Integer> batchSizes = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstBatchHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (BatchQueue<Echo> queue = new BatchQueue<>("echo", 1, 256, batch -> {
            batchSizes.add(batch.size());
            if (batchSizes.size() == 1) {
                firstBatchHeld.countDown();
                await(release);
            }
            batch.forEach(job -> job.result().complete(job.value() * 10));
        }, IllegalStateException::new)) {
            Echo first = new Echo(0);
            queue.submit(List.of(first));
            firstBatchHeld.await();
            ExecutorService callers = Executors.newFixedThreadPool(20);
            List<Future<Integer>> answers = new ArrayList<>();
            CountDownLatch queued = new CountDownLatch(20);
            for (int i = 1; i <= 20; i++) {
                int value = i;
                answers.add(callers.submit(() -> {
                    Echo job = new Echo(value);
                    queue.submit(List.of(job));
                    queued.countDown();
                    return queue.await(job.result(), Duration.ofSeconds(10));
                }));
            }
            queued.await();
            release.countDown();

            for (int i = 1; i <= 20; i++) {
                assertThat(answers.get(i - 1).get()).isEqualTo(i * 10);
            }
            assertThat(queue.await(first.result(), Duration.ofSeconds(10))).isZero();
            assertThat(batchSizes).containsExactly(1, 20);
            callers.shutdown();
        }
    }

    @Test
    void aBatchWhoseActionThrowsFailsItsJobsAndTheWorkerCarriesOn() {
        try (BatchQueue<Echo> queue = new BatchQueue<>("echo", 1, 256, batch -> {
            if (batch.get(0).value() < 0) {
                throw new IllegalArgumentException("negative");
            }
            batch.forEach(job -> job.result().complete(job.value()));
        }, IllegalStateException::new)) {
            Echo bad = new Echo(-1);
            queue.submit(List.of(bad));
            assertThatThrownBy(() -> queue.await(bad.result(), Duration.ofSeconds(10)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("negative");

            Echo good = new Echo(7);
            queue.submit(List.of(good));
            assertThat(queue.await(good.result(), Duration.ofSeconds(10))).isEqualTo(7);
        }
    }

    @Test
    void closingFailsWhatIsStillQueuedAndRefusesMore() throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BatchQueue<Echo> queue = new BatchQueue<>("echo", 1, 1, batch -> {
            held.countDown();
            await(release);
            batch.forEach(job -> job.result().complete(job.value()));
        }, IllegalStateException::new);
        Echo running = new Echo(1);
        Echo waiting = new Echo(2);
        queue.submit(List.of(running, waiting));
        // The worker holds the first job in its batch, the second still queued: what close finds.
        held.await();

        queue.close();
        release.countDown();

        assertThatThrownBy(() -> queue.await(waiting.result(), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalStateException.class).hasMessage("echo is closed");
        assertThatThrownBy(() -> queue.submit(List.of(new Echo(3))))
                .isInstanceOf(IllegalStateException.class).hasMessage("echo is closed");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
