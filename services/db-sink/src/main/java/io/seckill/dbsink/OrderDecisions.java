package io.seckill.dbsink;

import io.seckill.mysqlstate.OrderBatchWriter;
import io.seckill.mysqlstate.SqlFailures;
import io.seckill.runtime.OrderTrail;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides a SKU's share of a poll and sorts out what fails, by whose fault it is
 * ({@link SqlFailures#kind}): when the database cannot work, the failure is thrown, and the consumer
 * loop tries the same records again after a growing pause, for as long as it takes; only an order
 * whose own data the database refuses is dead-lettered at once; a failure that is no database error
 * at all is tried a few times, then dead-lettered with its reason, so that one odd record cannot
 * block its partition for good. Any failure but the database's is narrowed down to the orders that
 * cause it, each decided alone. An order the sink gives up on is rejected here (DEAD_LETTERED, its units go back
 * through the compensation every rejection gets): the sink saw the failure itself, which no dead letter can prove.
 */
final class OrderDecisions {

    /** Decides orders of one SKU in one transaction (the sink's {@link OrderBatchWriter}). */
    interface Writer {
        OrderBatchWriter.SkuDecisions write(long skuId, List<OrderRequested> orders);

        /**
         * Ends REJECTED (DEAD_LETTERED) an order the sink failed on for good, if it is still open; the rejection if so.
         */
        Optional<OrderResult> rejectUndecidable(OrderRequested failed);

        /** The sink's writer, deciding in MySQL. */
        static Writer of(OrderBatchWriter writer) {
            return new Writer() {
                @Override
                public OrderBatchWriter.SkuDecisions write(long skuId, List<OrderRequested> orders) {
                    return writer.write(skuId, orders);
                }

                @Override
                public Optional<OrderResult> rejectUndecidable(OrderRequested failed) {
                    return writer.rejectUndecidable(failed);
                }
            };
        }
    }

    /** Sends an order that cannot be decided to the dead-letter topic; returns once it is there. */
    @FunctionalInterface
    interface DeadLetters {
        void send(OrderRequested order, Exception reason) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(OrderDecisions.class);

    private final Writer writer;
    private final int unexpectedAttempts;
    private final Duration pause;

    OrderDecisions(Writer writer, int unexpectedAttempts, Duration pause) {
        this.writer = writer;
        this.unexpectedAttempts = unexpectedAttempts;
        this.pause = pause;
    }

    /** @return the decisions (with the rejections of orders sent to {@code deadLetters}) and the unsupported records */
    OrderBatchWriter.SkuDecisions decide(long skuId, List<OrderRequested> orders, DeadLetters deadLetters)
            throws Exception {
        try {
            return writer.write(skuId, orders);
        } catch (RuntimeException e) {
            if (SqlFailures.kind(e) == SqlFailures.Kind.DATABASE) {
                throw e;
            }
            LOG.warn(
                    "SKU {}: batch of {} failed ({}); deciding its orders one by one",
                    skuId,
                    orders.size(),
                    e.toString());
        }
        List<OrderResult> results = new ArrayList<>();
        List<OrderBatchWriter.Unsupported> unsupported = new ArrayList<>();
        for (OrderRequested order : orders) {
            // Deciding one order alone is where its failures are logged: each line names the order.
            OrderTrail.Scope scope = OrderTrail.about(OrderFacts.of(order), Optional.empty());
            try {
                OrderBatchWriter.SkuDecisions alone = decideAlone(skuId, order, deadLetters);
                results.addAll(alone.decided());
                unsupported.addAll(alone.unsupported());
            } finally {
                scope.close();
            }
        }
        return new OrderBatchWriter.SkuDecisions(results, unsupported);
    }

    private OrderBatchWriter.SkuDecisions decideAlone(long skuId, OrderRequested order, DeadLetters deadLetters)
            throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return writer.write(skuId, List.of(order));
            } catch (RuntimeException e) {
                boolean lastTry = switch (SqlFailures.kind(e)) {
                    case DATABASE -> throw e;
                    case RECORD -> true;
                    case UNEXPECTED -> attempt >= unexpectedAttempts;
                };
                if (lastTry) {
                    Optional<OrderResult> rejection = rejectUndecidable(order);
                    deadLetters.send(order, e);
                    return new OrderBatchWriter.SkuDecisions(rejection.stream().toList(), List.of());
                }
                LOG.warn(
                        "order {}: unexpected failure, attempt {} of {}",
                        order.orderId(),
                        attempt,
                        unexpectedAttempts,
                        e);
                Thread.sleep(pause.toMillis() * attempt);
            }
        }
    }

    /** The rejection, or none when MySQL refuses even that (the order stays open, its dead letter tells a human). */
    private Optional<OrderResult> rejectUndecidable(OrderRequested order) {
        try {
            return writer.rejectUndecidable(order);
        } catch (RuntimeException e) {
            if (SqlFailures.kind(e) == SqlFailures.Kind.DATABASE) {
                throw e;
            }
            LOG.error(
                    "order {} can be neither decided nor rejected; it stays open for a human (see its dead letter)",
                    order.orderId(),
                    e);
            return Optional.empty();
        }
    }
}
