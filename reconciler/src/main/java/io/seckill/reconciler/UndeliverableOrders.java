package io.seckill.reconciler;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.SaleStore;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives up on orders the relay sent {@code maxAttempts} times without the pipeline deciding them: each
 * is decided REJECTED (UNDELIVERED) in MySQL and its row closed, in one transaction that locks the row,
 * so it cannot race the sink: whichever commits first decides, and a record of the order that still
 * reaches the sink finds the decision and reports it again. Then the reservation goes back (guarded by
 * the ledger; if Redis fails here, the leaked-reservation sweep releases it from the decision).
 */
record UndeliverableOrders(DSLContext dsl, Outbox outbox, Orders orders, SaleStore saleStore, OrderStatusStore statuses, int maxAttempts,
                           int batchSize, Clock clock, ReconcilerMetrics metrics) {

    private static final Logger LOG = LoggerFactory.getLogger(UndeliverableOrders.class);

    /** @return orders given up on */
    int giveUp() {
        return UntilShortBatch.run(batchSize, this::giveUpBatch);
    }

    private int giveUpBatch() {
        Instant now = clock.instant();
        List<Outbox.DueRow> exhausted = dsl.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<Outbox.DueRow> rows = outbox.lockExhausted(tx, now, maxAttempts, batchSize);
            if (rows.isEmpty()) {
                return rows;
            }
            List<String> ids = rows.stream().map(Outbox.DueRow::orderId).toList();
            Map<String, OrderResult> decided = orders.decided(tx, ids);
            List<OrderRequested> undecided = rows.stream()
                    .filter(row -> !decided.containsKey(row.orderId()))
                    .map(row -> EventJson.decode(row.payload().getBytes(StandardCharsets.UTF_8), OrderRequested.class))
                    .toList();
            if (!undecided.isEmpty()) {
                orders.insertRejected(tx, undecided, undecided.stream().map(order -> OrderResult.rejected(order, RejectReason.UNDELIVERED, now)).toList());
            }
            outbox.complete(tx, ids, now);
            return rows.stream().filter(row -> !decided.containsKey(row.orderId())).toList();
        });
        for (Outbox.DueRow row : exhausted) {
            saleStore.release(row.skuId(), row.orderId());
            statuses.decide(row.orderId(), OrderStatus.REJECTED, RejectReason.UNDELIVERED);
            LOG.warn("order {} of SKU {}: not decided after {} sends; rejected as UNDELIVERED, its reservation released",
                    row.orderId(), row.skuId(), row.attempts());
        }
        metrics.relayGaveUp(exhausted.size());
        return exhausted.size();
    }
}
