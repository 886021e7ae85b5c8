package io.seckill.reconciler.jobs;

import java.util.function.IntSupplier;

/** Repeats a batch of work while batches come back full: a short batch means nothing more is due. */
public final class UntilShortBatch {

    private UntilShortBatch() {
    }

    /** @return the sum of what the batches did */
    public static int run(int batchSize, IntSupplier batch) {
        int total = 0;
        int done;
        do {
            done = batch.getAsInt();
            total += done;
        } while (done == batchSize);
        return total;
    }
}
