package io.seckill.reconciler.figures;

import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.RedisMemory;
import io.seckill.runtime.ConsumerGroupLag;
import java.time.Duration;

/** The pipeline's figures an operator watches: the outbox backlog, each group's lag, Redis's fullest memory. */
public final class PipelineFigures {

    private PipelineFigures() {
    }

    /** The job that measures them every {@code interval}. */
    public static Job job(ReconcilerParts parts, Duration interval) {
        // A measurement never outlasts its interval: a silent cluster skips a round instead of stacking them.
        ConsumerGroupLag lag = new ConsumerGroupLag(parts.admin(), interval);
        ReconcilerMetrics metrics = parts.metrics();
        return new Job("pipeline figures", interval, () -> {
            metrics.outboxBacklog(parts.tables().outboxRows().backlog(parts.dsl()));
            metrics.groupLag(lag.measure());
            metrics.redisMemory(RedisMemory.fullest(parts.redis()));
        });
    }
}
