package io.seckill.mysqlstate;

import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Ends an order that can never be decided: REJECTED (DEAD_LETTERED), its outbox row closed, in one transaction that
 * locks the row, so it cannot race the sink (whichever commits first decides; a copy of the order that still reaches
 * the sink finds the decision). What makes an order undecidable is the caller's evidence, checked on the locked row:
 * the sink's own failure on exactly that order, or a row whose payload is itself poison. A dead letter alone is no
 * evidence: anyone who can write the topic could name any order.
 */
public final class DeadLetteredOrders {

    private final OutboxLookups rows = new OutboxLookups();
    private final Orders orders = new Orders();
    private final Outbox outbox = new Outbox();

    /** What became of the order. */
    public enum Verdict {
        /** Rejected now. */
        REJECTED,
        /** Open and undecided, but the evidence does not hold: left for the pipeline to decide. */
        UNPROVEN,
        /** Nothing to do: no open row, or decided already. */
        SETTLED
    }

    /** The verdict, with the rejection when there is one. */
    public record Outcome(Verdict verdict, Optional<OrderResult> rejection) {
    }

    /** Rejects the order when its row is open, the order undecided and {@code undecidable} holds for the locked row. */
    public Outcome reject(DSLContext dsl, String orderId, Predicate<OutboxLookups.OpenOrder> undecidable, Instant now) {
        return dsl.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            Optional<OutboxLookups.OpenOrder> row = rows.lockOpenOrder(tx, orderId);
            if (row.isEmpty() || orders.exists(tx, orderId)) {
                return new Outcome(Verdict.SETTLED, Optional.empty());
            }
            if (!undecidable.test(row.get())) {
                return new Outcome(Verdict.UNPROVEN, Optional.empty());
            }
            OrderResult rejection = OrderResult.rejected(row.get().order(), RejectReason.DEAD_LETTERED, now);
            orders.insertRejected(tx, List.of(row.get().order()), List.of(rejection));
            outbox.complete(tx, List.of(orderId), now);
            return new Outcome(Verdict.REJECTED, Optional.of(rejection));
        });
    }
}
