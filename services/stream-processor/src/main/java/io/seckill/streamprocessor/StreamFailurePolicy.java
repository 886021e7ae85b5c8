package io.seckill.streamprocessor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * What a failed stream thread means for the client. A broker that cannot be reached is waited out: the thread is
 * replaced. So is a transaction the broker ended under the thread (a broker restarted after a crash aborts the
 * transactions it finds open: the next commit is refused as an invalid transaction state, or the producer is fenced): a
 * new thread starts a new producer and redoes the work from the committed offsets, which exactly-once makes safe.
 * Source topics missing at a rebalance are waited out for a grace period too, because a broker restarting after a crash
 * reports its topics missing until it has loaded them; if they stay missing (deleted), the client shuts down. Anything
 * else shuts the client down at once, and a client in ERROR ends its process.
 */
final class StreamFailurePolicy {

    private final Clock clock;
    private final Duration missingTopicsGrace;
    private Instant topicsMissingSince;

    StreamFailurePolicy(Clock clock, Duration missingTopicsGrace) {
        this.clock = clock;
        this.missingTopicsGrace = missingTopicsGrace;
    }

    synchronized StreamThreadExceptionResponse onFailure(Throwable failure) {
        if (causedBy(failure, RetriableException.class)
                || causedBy(failure, InvalidTxnStateException.class)
                || causedBy(failure, ProducerFencedException.class)
                || causedBy(failure, InvalidProducerEpochException.class)) {
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        if (causedBy(failure, MissingSourceTopicException.class)) {
            Instant now = clock.instant();
            if (topicsMissingSince == null) {
                topicsMissingSince = now;
            }
            return Duration.between(topicsMissingSince, now).compareTo(missingTopicsGrace) < 0
                    ? StreamThreadExceptionResponse.REPLACE_THREAD
                    : StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /** The client runs again: a later disappearance of the topics gets a grace period of its own. */
    synchronized void running() {
        topicsMissingSince = null;
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }
}
