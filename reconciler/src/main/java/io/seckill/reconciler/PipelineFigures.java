package io.seckill.reconciler;

import io.seckill.redisstate.RedisMemory;
import io.seckill.runtime.ConsumerGroupLag;

/** The pipeline's figures an operator watches: the outbox backlog, each group's lag, Redis's fullest memory. */
final class PipelineFigures {

    private PipelineFigures() {
    }

    static Job job(ReconcilerParts parts) {
        // A measurement never outlasts its interval: a silent cluster skips a round instead of stacking them.
        ConsumerGroupLag lag = new ConsumerGroupLag(parts.admin(), parts.config().figuresInterval());
        ReconcilerMetrics metrics = parts.metrics();
        return new Job("pipeline figures", parts.config().figuresInterval(), () -> {
            metrics.outboxBacklog(parts.tables().outboxRows().backlog(parts.dsl()));
            metrics.groupLag(lag.measure());
            metrics.redisMemory(RedisMemory.fullest(parts.redis()));
        });
    }
}
