package io.seckill.reconciler.relay;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.UntilShortBatch;
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
 * Gives up on orders whose record the broker refused on each of {@code maxAttempts} re-sends, never taking
 * one ({@link RelaySends}; an order the broker took is the pipeline's to decide, never given up): each
 * is decided REJECTED (UNDELIVERED) in MySQL and its row closed, in one transaction that locks the row,
 * so it cannot race the sink: whichever commits first decides, and a record of the order that still
 * reaches the sink finds the decision and reports it again. Then the reservation goes back (guarded by
 * the ledger; if Redis fails here, the leaked-reservation sweep releases it from the decision).
 */
record UndeliverableOrders(
        DSLContext dsl,
        RelayedRows outbox,
        Orders orders,
        SaleStore saleStore,
        OrderStatusStore statuses,
        int maxAttempts,
        int batchSize,
        Clock clock,
        ReconcilerMetrics metrics) {

    private static final Logger LOG = LoggerFactory.getLogger(UndeliverableOrders.class);

    /** @return orders given up on */
    int giveUp() {
        return UntilShortBatch.run(batchSize, this::giveUpBatch);
    }

    private int giveUpBatch() {
        Instant now = clock.instant();
        List<GivenUp> exhausted = dsl.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            List<RelayedRows.Due> rows = outbox.lockExhausted(tx, now, maxAttempts, batchSize);
            if (rows.isEmpty()) {
                return List.<GivenUp>of();
            }
            List<String> ids = rows.stream().map(RelayedRows.Due::id).toList();
            Map<String, OrderResult> decided = orders.decided(tx, ids);
            List<GivenUp> undecided = rows.stream()
                    .filter(row -> !decided.containsKey(row.id()))
                    .map(row -> new GivenUp(
                            EventJson.decode(row.payload().getBytes(StandardCharsets.UTF_8), OrderRequested.class),
                            row.attempts()))
                    .toList();
            if (!undecided.isEmpty()) {
                orders.insertRejected(
                        tx,
                        undecided.stream().map(GivenUp::order).toList(),
                        undecided.stream()
                                .map(given -> OrderResult.rejected(given.order(), RejectReason.UNDELIVERED, now))
                                .toList());
            }
            outbox.complete(tx, ids, now);
            return undecided;
        });
        for (GivenUp given : exhausted) {
            OrderRequested order = given.order();
            saleStore.release(order.skuId(), order.orderId(), order.userId());
            statuses.decide(order.orderId(), OrderStatus.REJECTED, RejectReason.UNDELIVERED);
            LOG.warn(
                    "order {} of SKU {}: its record refused by the broker {} times; rejected as UNDELIVERED, its"
                            + " reservation released",
                    order.orderId(),
                    order.skuId(),
                    given.attempts());
        }
        metrics.relayGaveUp(exhausted.size());
        return exhausted.size();
    }

    /** An order whose record the broker refused {@code attempts} times, rejected here. */
    private record GivenUp(OrderRequested order, int attempts) {
    }
}
