package io.seckill.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs N calls on N threads released by one start gate, so they really race. */
public final class Concurrently {

    private Concurrently() {
    }

    public static <T> List<T> run(int times, Callable<T> call) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(times);
        CountDownLatch gate = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < times; i++) {
                futures.add(threads.submit(() -> {
                    gate.await();
                    return call.call();
                }));
            }
            gate.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
