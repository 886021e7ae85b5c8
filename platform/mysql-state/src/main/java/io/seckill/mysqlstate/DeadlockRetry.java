package io.seckill.mysqlstate;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs a transaction again when InnoDB chose it as a deadlock's victim (it was rolled back whole, so
 * running it again is the cure), after a short random pause, a bounded number of times. Transactions that
 * lock rows through different indexes of one table (an order by its id, the due orders by deadline)
 * deadlock now and then under contention however they are written.
 */
final class DeadlockRetry {

    private static final int ATTEMPTS = 10;

    private DeadlockRetry() {
    }

    static <T> T run(Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !SqlFailures.deadlock(e)) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 20L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted before running a deadlocked transaction again", e);
        }
    }
}
