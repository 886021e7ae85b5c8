package io.seckill.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Group commit: many threads submit jobs and wait on each job's result; a few worker threads take
 * whatever has queued up (up to a limit) and hand it to one batch action, which completes every
 * result. Under light load a batch is one job and goes out at once; under a storm batches grow with
 * the queue, so a fixed cost per batch (a round trip, a commit) is shared by all its jobs.
 *
 * @param <T> a job; the batch action must complete each job's {@link Job#result()}
 */
public final class BatchQueue<T extends BatchQueue.Job> implements AutoCloseable {

    /** What a submitter waits on. */
    public interface Job {
        CompletableFuture<?> result();
    }

    private final String what;
    private final int maxBatch;
    private final Consumer<List<T>> action;
    private final BiFunction<String, Throwable, RuntimeException> failure;
    private final BlockingQueue<T> queue = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running = true;

    /**
     * @param what    names the worker threads and the failures, e.g. "outbox-writer"
     * @param failure makes the exception a submitter sees when its job times out, is interrupted or is
     *                left unfinished at close (message, cause or null)
     */
    public BatchQueue(String what, int workerThreads, int maxBatch, Consumer<List<T>> action,
                      BiFunction<String, Throwable, RuntimeException> failure) {
        this.what = what;
        this.maxBatch = maxBatch;
        this.action = action;
        this.failure = failure;
        for (int i = 0; i < workerThreads; i++) {
            Thread worker = new Thread(this::work, what + "-" + i);
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
    }

    /** Queues the jobs; their batches may differ. */
    public void submit(List<T> jobs) {
        if (!running) {
            throw failure.apply(what + " is closed", null);
        }
        queue.addAll(jobs);
    }

    /** Waits for a submitted job's result. @throws RuntimeException the job's failure, or {@code failure}'s */
    public <V> V await(CompletableFuture<V> result, Duration limit) {
        return await(result, limit, what, failure);
    }

    /** The same wait, for a result completed without a queue. */
    public static <V> V await(CompletableFuture<V> result, Duration limit, String what,
                              BiFunction<String, Throwable, RuntimeException> failure) {
        try {
            return result.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw failure.apply("no answer from " + what + " within " + limit, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure.apply("interrupted waiting for " + what, e);
        }
    }

    private void work() {
        List<T> batch = new ArrayList<>(maxBatch);
        while (running) {
            try {
                T first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                action.accept(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException unexpected) {
                // The action failed in a way it did not handle: its jobs fail, the worker carries on.
                batch.forEach(job -> job.result().completeExceptionally(unexpected));
            } finally {
                batch.clear();
            }
        }
    }

    /** Stops the workers; jobs still queued fail with {@code failure}'s exception. */
    @Override
    public void close() {
        running = false;
        workers.forEach(Thread::interrupt);
        for (T left; (left = queue.poll()) != null; ) {
            left.result().completeExceptionally(failure.apply(what + " is closed", null));
        }
    }
}
