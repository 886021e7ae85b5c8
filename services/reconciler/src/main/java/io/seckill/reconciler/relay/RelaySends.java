package io.seckill.reconciler.relay;

import io.seckill.mysqlstate.RelayedRows;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a relay's claimed rows and settles each claim by what the broker answered for its record:
 * <ul>
 *   <li>acknowledged: counted as such ({@link RelayedRows#acknowledged}); such a row is never given up;</li>
 *   <li>refused, the record itself (too large, invalid): the claim stays counted, the row backs off;</li>
 *   <li>unanswered (timed out, broker away, not allowed by the reconciler's own credentials, producer
 *       closing): handed back uncounted ({@link RelayedRows#unclaim}), due again after {@code retry}. None of
 *       these says anything about the record, so none brings its row closer to being given up.</li>
 * </ul>
 */
record RelaySends(DSLContext dsl, RelayedRows rows, Producer<String, byte[]> producer, Duration retry, Clock clock) {

    private static final Logger LOG = LoggerFactory.getLogger(RelaySends.class);

    /**
     * What became of a batch: how many records the broker acknowledged, and how many it did not answer.
     * @param what what the records are, for the failure's message
     */
    record Answered(int acknowledged, int unanswered, int sent, Throwable cause, String what) {

        /**
         * @return the records acknowledged
         * @throws IllegalStateException when some went unanswered: the broker is away, and a relay's batch loop stops
         * here
         */
        int acknowledgedOrFail() {
            if (unanswered > 0) {
                throw new IllegalStateException(
                        unanswered + " of " + sent + " " + what
                                + " not acknowledged; handed back to be sent again soon",
                        cause);
            }
            return acknowledged;
        }
    }

    /** @param what what the records are, for the log and the failure's message */
    Answered send(
            List<RelayedRows.Due> claimed,
            Function<RelayedRows.Due, ProducerRecord<String, byte[]>> toRecord,
            String what) {
        List<Future<RecordMetadata>> answers = new ArrayList<>();
        for (RelayedRows.Due row : claimed) {
            ProducerRecord<String, byte[]> record = toRecord.apply(row);
            // The trace the row was written under: a re-send continues it as the first send did.
            TraceParent.parse(row.traceparent()).ifPresent(trace -> TraceHeaders.put(record.headers(), trace));
            answers.add(sendOne(record));
        }
        List<RelayedRows.Due> acknowledged = new ArrayList<>();
        List<RelayedRows.Due> unanswered = new ArrayList<>();
        Throwable unansweredCause = null;
        for (int i = 0; i < claimed.size(); i++) {
            RelayedRows.Due row = claimed.get(i);
            Throwable failure = failureOf(answers.get(i));
            if (failure == null) {
                acknowledged.add(row);
            } else if (refusesTheRecord(failure)) {
                LOG.warn(
                        "the broker refused {} {} (send {}); it is sent again after its backoff",
                        what,
                        row.id(),
                        row.attempts() + 1,
                        failure);
            } else {
                unanswered.add(row);
                unansweredCause = failure;
            }
        }
        rows.acknowledged(dsl, acknowledged);
        if (!unanswered.isEmpty()) {
            rows.unclaim(dsl, unanswered, clock.instant().plus(retry));
        }
        return new Answered(acknowledged.size(), unanswered.size(), claimed.size(), unansweredCause, what);
    }

    private Future<RecordMetadata> sendOne(ProducerRecord<String, byte[]> record) {
        try {
            return producer.send(record);
        } catch (RuntimeException failedBeforeSending) {
            // The producer closing or unable to fetch metadata in time: an answer that never came, as its future would
            // say.
            return CompletableFuture.failedFuture(failedBeforeSending);
        }
    }

    private static Throwable failureOf(Future<RecordMetadata> answer) {
        try {
            answer.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** An answer about the record, not about the broker's health or the reconciler's own access. */
    private static boolean refusesTheRecord(Throwable failure) {
        return failure instanceof ApiException
                && !(failure instanceof RetriableException)
                && !(failure instanceof AuthorizationException)
                && !(failure instanceof AuthenticationException);
    }

    /** The sends of {@code rows} with the reconciler's producer, retried after the relay's interval. */
    static RelaySends of(ReconcilerParts parts, RelayedRows rows, RelaySettings settings) {
        return new RelaySends(parts.dsl(), rows, parts.producer(), settings.interval(), parts.clock());
    }
}
