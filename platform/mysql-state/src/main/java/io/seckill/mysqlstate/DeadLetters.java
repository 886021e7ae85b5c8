package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;

import java.util.Arrays;
import org.jooq.DSLContext;

/** {@code dead_letters}: each dead letter filed for a human, once, by where it sits on the dead-letter topic. */
public final class DeadLetters {

    /** The longest reason and key kept: the columns' sizes. */
    private static final int MAX_REASON = 1000;
    private static final int MAX_KEY_BYTES = 512;

    /**
     * A dead letter as filed: where it sits on the dead-letter topic, where it came from and which stage gave it up
     * (null where the record does not say, or said it in a form left out), why, the order it names, what it carried,
     * and whether its order's units were released.
     */
    // A letter is written to its row as it is, never compared or hashed.
    @SuppressWarnings("ArrayRecordComponent")
    public record Letter(
            int dlqPartition,
            long dlqOffset,
            String sourceTopic,
            Integer sourcePartition,
            Long sourceOffset,
            String reason,
            String failedStage,
            String orderId,
            byte[] recordKey,
            byte[] recordValue,
            boolean released) {}

    /**
     * Files {@code letter} unless it is filed already (a dead letter read again after a rebalance); cuts what is too
     * long.
     */
    public void file(DSLContext db, Letter letter) {
        String reason = letter.reason();
        byte[] key = letter.recordKey();
        db.insertInto(DEAD_LETTERS)
                .set(DEAD_LETTERS.DLQ_PARTITION, letter.dlqPartition())
                .set(DEAD_LETTERS.DLQ_OFFSET, letter.dlqOffset())
                .set(DEAD_LETTERS.SOURCE_TOPIC, letter.sourceTopic())
                .set(DEAD_LETTERS.SOURCE_PARTITION, letter.sourcePartition())
                .set(DEAD_LETTERS.SOURCE_OFFSET, letter.sourceOffset())
                .set(DEAD_LETTERS.REASON, reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason)
                .set(DEAD_LETTERS.FAILED_STAGE, letter.failedStage())
                .set(DEAD_LETTERS.ORDER_ID, letter.orderId())
                .set(
                        DEAD_LETTERS.RECORD_KEY,
                        key == null || key.length <= MAX_KEY_BYTES ? key : Arrays.copyOf(key, MAX_KEY_BYTES))
                .set(DEAD_LETTERS.RECORD_VALUE, letter.recordValue())
                .set(DEAD_LETTERS.RELEASED, letter.released())
                .onDuplicateKeyIgnore()
                .execute();
    }
}
