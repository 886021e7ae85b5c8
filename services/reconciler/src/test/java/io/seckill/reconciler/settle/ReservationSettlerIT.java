package io.seckill.reconciler.settle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.mysqlstate.Orders;
import io.seckill.reconciler.Stores;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.redisstate.SkuKeys;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.Topic;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Results settle the Redis ledger and tell polling buyers; compensations give units and slots back, once. */
class ReservationSettlerIT {

    private final ReservationSettler settler = new ReservationSettler(
            Stores.sql(), new Orders(), Stores.SALES, Stores.STATUSES, Stores.UNSUPPORTED, Stores.metrics());

    @Test
    void confirmedUnitsStaySoldAndRejectedOnesComeBackExactlyOnceEvenWhenDeliveredTwice() throws Exception {
        long sku = Stores.openSale(5, 1);
        OrderRequested kept = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        OrderRequested refused = Stores.accepted(sku, "refused", Instant.now().plusSeconds(600));
        OrderResult confirmed = Stores.decided(kept, OrderResult.confirmed(kept, Instant.now()));
        OrderResult rejected =
                Stores.decided(refused, OrderResult.rejected(refused, RejectReason.SOLD_OUT, Instant.now()));
        StockCompensation compensation = StockCompensation.forRejected(rejected);

        settler.onResults(deliveries(Topic.ORDER_RESULTS, List.of(confirmed, rejected, confirmed)));
        settler.onCompensations(deliveries(Topic.STOCK_COMPENSATIONS, List.of(compensation, compensation)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 0));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(Stores.PROBE.heldBy(sku, "refused")).isZero();
        assertThat(Stores.STATUSES.get(kept.orderId()))
                .contains(new OrderView(new OrderFacts(kept.orderId(), sku, "kept", 1), OrderStatus.CONFIRMED, null));
        assertThat(Stores.STATUSES.get(refused.orderId()))
                .contains(new OrderView(
                        new OrderFacts(refused.orderId(), sku, "refused", 1),
                        OrderStatus.REJECTED,
                        RejectReason.SOLD_OUT));
    }

    /**
     * Between a rebuild's first step and its last (the sale not loaded), a settlement would be undone by the last
     * step's snapshot: the batch fails, for the consumer loop to run it again, and settles once the sale is open (P5).
     */
    @Test
    void aBatchWhoseSaleIsBeingRebuiltFailsAndSettlesOnceTheSaleIsOpen() throws Exception {
        long sku = Stores.openSale(5, 1);
        OrderRequested kept = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        OrderRequested refused = Stores.accepted(sku, "refused", Instant.now().plusSeconds(600));
        OrderResult confirmed = Stores.decided(kept, OrderResult.confirmed(kept, Instant.now()));
        OrderResult rejected =
                Stores.decided(refused, OrderResult.rejected(refused, RejectReason.SOLD_OUT, Instant.now()));
        List<Delivery<OrderResult>> results = deliveries(Topic.ORDER_RESULTS, List.of(confirmed));
        List<Delivery<StockCompensation>> compensations =
                deliveries(Topic.STOCK_COMPENSATIONS, List.of(StockCompensation.forRejected(rejected)));
        String sale = new SkuKeys(sku).sale();
        String limit = Stores.REDIS.hget(sale, "limit");
        Stores.REDIS.hdel(sale, "limit");

        assertThatThrownBy(() -> settler.onResults(results)).hasMessageContaining("rebuilt");
        assertThatThrownBy(() -> settler.onCompensations(compensations)).hasMessageContaining("rebuilt");
        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(3, 2));

        Stores.REDIS.hset(sale, "limit", limit);
        settler.onResults(results);
        settler.onCompensations(compensations);

        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 0));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(Stores.PROBE.heldBy(sku, "refused")).isZero();
    }

    /**
     * Well-formed lies from a producer that may write these topics: a rejection of a confirmed order, a confirmation
     * and a compensation for an order MySQL never decided, a compensation giving back more units than the rejected
     * order held. Nothing is settled, released or shown to the buyer; each is counted as refused.
     */
    @Test
    void resultsAndCompensationsMySqlDoesNotHoldChangeNothing() throws Exception {
        long sku = Stores.openSale(5, 2);
        OrderRequested kept = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        OrderRequested undecided = Stores.accepted(sku, "undecided", Instant.now().plusSeconds(600));
        OrderRequested refused = Stores.accepted(sku, "refused", Instant.now().plusSeconds(600));
        Stores.decided(kept, OrderResult.confirmed(kept, Instant.now()));
        OrderResult rejected =
                Stores.decided(refused, OrderResult.rejected(refused, RejectReason.SOLD_OUT, Instant.now()));
        double noRowBefore = Stores.refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.NO_ORDER_ROW);
        double differsBefore = Stores.refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW);
        double compensationsBefore = Stores.refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.NO_ORDER_ROW)
                + Stores.refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW);

        settler.onResults(deliveries(
                Topic.ORDER_RESULTS,
                List.of(
                        OrderResult.rejected(kept, RejectReason.SOLD_OUT, Instant.now()),
                        OrderResult.confirmed(undecided, Instant.now()))));
        settler.onCompensations(deliveries(
                Topic.STOCK_COMPENSATIONS,
                List.of(
                        StockCompensation.forRejected(OrderResult.rejected(kept, RejectReason.SOLD_OUT, Instant.now())),
                        StockCompensation.forRejected(
                                OrderResult.rejected(undecided, RejectReason.SOLD_OUT, Instant.now())),
                        new StockCompensation(
                                StockCompensation.CURRENT_VERSION,
                                refused.orderId(),
                                sku,
                                "refused",
                                2,
                                RejectReason.SOLD_OUT,
                                rejected.decidedAt()))));

        assertThat(Stores.SALES.state(sku)).as("every reservation still pending").isEqualTo(new RedisSkuState(2, 3));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(Stores.PROBE.heldBy(sku, "undecided")).isEqualTo(1);
        assertThat(Stores.STATUSES.get(kept.orderId())).isEmpty();
        assertThat(Stores.STATUSES.get(undecided.orderId())).isEmpty();
        assertThat(Stores.refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.NO_ORDER_ROW))
                .isEqualTo(noRowBefore + 1);
        assertThat(Stores.refused(Topic.ORDER_RESULTS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW))
                .isEqualTo(differsBefore + 1);
        assertThat(Stores.refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.NO_ORDER_ROW)
                        + Stores.refused(Topic.STOCK_COMPENSATIONS, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW))
                .isEqualTo(compensationsBefore + 3);
    }

    private static <V> List<Delivery<V>> deliveries(Topic<V> topic, List<V> values) {
        return values.stream()
                .map(value -> new Delivery<>(
                        value, new ConsumerRecord<>(topic.topicName(), 0, 0L, "key", topic.encode(value))))
                .toList();
    }
}
