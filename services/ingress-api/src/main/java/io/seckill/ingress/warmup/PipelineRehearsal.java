package io.seckill.ingress.warmup;

import io.seckill.ingress.buying.OrderPublisher;
import io.seckill.schemas.events.OrderRequested;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm-up's rehearsed orders sent down the pipeline, until a send fails: an ingress starting while Kafka is away
 * must not spend its warm-up waiting for it (each send may block for the producer's metadata), and the pipeline
 * then warms with the first sale instead.
 */
final class PipelineRehearsal {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRehearsal.class);

    private final OrderPublisher publisher;
    private final AtomicBoolean reachable = new AtomicBoolean(true);

    PipelineRehearsal(OrderPublisher publisher) {
        this.publisher = publisher;
    }

    void send(OrderRequested rehearsed) {
        if (reachable.get()) {
            publisher.publishWarmUp(rehearsed, this::stop);
        }
    }

    private void stop(Exception failure) {
        if (reachable.compareAndSet(true, false)) {
            LOG.info(
                    "the warm-up stopped sending orders down the pipeline ({}); it warms with the first sale instead",
                    failure.toString());
        }
    }
}
