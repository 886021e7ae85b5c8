package io.seckill.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a well-formed record that its source of truth does not support (an order with no outbox row behind it, a
 * result MySQL never decided, a cancellation of an order that is not cancelled): whoever wrote it, it changes nothing.
 * Each refusal is counted ({@code seckill.records.refused{stage, topic, reason}}), logged, and sent to the dead-letter
 * topic with its reason, where a human can see it.
 */
public final class UnsupportedRecords {

    /** Why a record was refused. */
    public enum Reason {
        /** An order request whose order the outbox never recorded. */
        NO_OUTBOX_ROW,
        /** An order request that differs from its outbox row (SKU, buyer, quantity). */
        DIFFERS_FROM_OUTBOX_ROW,
        /** A result, compensation or lifecycle event for an order MySQL never decided. */
        NO_ORDER_ROW,
        /** A result, compensation or lifecycle event that says something else than the order's row. */
        DIFFERS_FROM_ORDER_ROW,
        /**
         * A dead letter naming an open order whose outbox row is sound: no evidence that the order cannot be decided.
         */
        OUTBOX_ROW_IS_SOUND
    }

    private static final Logger LOG = LoggerFactory.getLogger(UnsupportedRecords.class);

    /**
     * Refused records dead-lettered (and logged) per topic and reason in a minute; the rest are counted only. Each
     * copy of a refused record proves no more than the first, and a flood forged with a stolen credential must not
     * become as many dead letters, rows and log lines.
     */
    public static final int DEAD_LETTERED_PER_MINUTE = 60;

    private final DeadLetterPublisher deadLetters;
    private final MeterRegistry meters;
    private final String stage;
    private final PerMinuteSample sample;

    public UnsupportedRecords(DeadLetterPublisher deadLetters, MeterRegistry meters, String stage) {
        this.deadLetters = deadLetters;
        this.meters = meters;
        this.stage = stage;
        this.sample = new PerMinuteSample(
                stage + ": refused records dead-lettered", DEAD_LETTERED_PER_MINUTE, System::nanoTime);
    }

    /**
     * Counts {@code record}; logs and dead-letters it when it is among its topic's and reason's first
     * {@link #DEAD_LETTERED_PER_MINUTE} this minute, returning once the dead letter is acknowledged.
     */
    public void refuse(ConsumerRecord<String, byte[]> record, Reason reason, String detail)
            throws ExecutionException, InterruptedException {
        count(meters, stage, record.topic(), reason);
        if (!sample.keep(record.topic() + " " + reason)) {
            return;
        }
        LOG.warn(
                "{} refused a record of {} (partition {}, offset {}): {}: {}",
                stage,
                record.topic(),
                record.partition(),
                record.offset(),
                reason,
                detail);
        deadLetters.publish(record, new UnsupportedRecordException(reason, detail));
    }

    /**
     * Counts a refusal; for a stage that refuses a record without dead-lettering it (the dead-letter topic's own
     * consumer).
     */
    public static void count(MeterRegistry meters, String stage, String topic, Reason reason) {
        Counter.builder("seckill.records.refused")
                .description("well-formed records refused because MySQL or the outbox does not support what they say")
                .tag("stage", stage).tag("topic", topic).tag("reason", reason.name())
                .register(meters).increment();
    }

    /** The reason a refused record carries to the dead-letter topic. */
    public static final class UnsupportedRecordException extends Exception {
        private static final long serialVersionUID = 1L;

        UnsupportedRecordException(Reason reason, String detail) {
            super(reason + ": " + detail);
        }
    }
}
