package io.seckill.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class StreamFailurePolicyTest {

    private static final Duration GRACE = Duration.ofSeconds(60);
    private Instant now = Instant.parse("2026-11-29T12:00:00Z");
    private final StreamFailurePolicy policy = new StreamFailurePolicy(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }, GRACE);

    @Test
    void anUnreachableBrokerReplacesTheThread() {
        assertThat(policy.onFailure(new StreamsException(new TimeoutException("no broker"))))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    /** What a stream thread meets after the broker restarted and aborted its open transaction. */
    @Test
    void aTransactionTheBrokerEndedReplacesTheThread() {
        assertThat(policy.onFailure(new StreamsException("Error encountered trying to commit a transaction",
                new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."))))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(policy.onFailure(new StreamsException(new ProducerFencedException("fenced"))))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void missingSourceTopicsAreWaitedOutForTheGraceThenShutTheClientDown() {
        MissingSourceTopicException missing = new MissingSourceTopicException("One or more source topics were missing");
        assertThat(policy.onFailure(missing)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        now = now.plus(GRACE.minusSeconds(1));
        assertThat(policy.onFailure(missing)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        now = now.plus(Duration.ofSeconds(1));
        assertThat(policy.onFailure(missing)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }

    @Test
    void runningAgainStartsANewGrace() {
        MissingSourceTopicException missing = new MissingSourceTopicException("One or more source topics were missing");
        policy.onFailure(missing);
        now = now.plus(GRACE);
        policy.running();
        assertThat(policy.onFailure(missing)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void anythingElseShutsTheClientDown() {
        assertThat(policy.onFailure(new IllegalStateException("a bug")))
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }
}
