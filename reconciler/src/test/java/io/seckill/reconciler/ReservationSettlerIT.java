package io.seckill.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SkuKeys;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.runtime.Delivery;
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

    private final ReservationSettler settler = new ReservationSettler(Stores.SALES, Stores.STATUSES, Stores.metrics());

    @Test
    void confirmedUnitsStaySoldAndRejectedOnesComeBackExactlyOnceEvenWhenDeliveredTwice() {
        long sku = Stores.openSale(5, 1);
        OrderRequested kept = Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        OrderRequested refused = Stores.accepted(sku, "refused", Instant.now().plusSeconds(600));
        OrderResult confirmed = OrderResult.confirmed(kept, Instant.now());
        OrderResult rejected = OrderResult.rejected(refused, RejectReason.SOLD_OUT, Instant.now());
        StockCompensation compensation = StockCompensation.forRejected(rejected);

        settler.onResults(deliveries(Topic.ORDER_RESULTS, List.of(confirmed, rejected, confirmed)));
        settler.onCompensations(deliveries(Topic.STOCK_COMPENSATIONS, List.of(compensation, compensation)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(4, 0));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(Stores.PROBE.heldBy(sku, "refused")).isZero();
        assertThat(Stores.STATUSES.get(kept.orderId())).contains(new OrderView(kept.orderId(), sku, "kept", 1, OrderStatus.CONFIRMED, null));
        assertThat(Stores.STATUSES.get(refused.orderId()))
                .contains(new OrderView(refused.orderId(), sku, "refused", 1, OrderStatus.REJECTED, RejectReason.SOLD_OUT));
    }

    /**
     * Between a rebuild's first step and its last (the sale not loaded), a settlement would be undone by the last step's
     * snapshot: the batch fails, for the consumer loop to run it again, and settles once the sale is open (P5).
     */
    @Test
    void aBatchWhoseSaleIsBeingRebuiltFailsAndSettlesOnceTheSaleIsOpen() {
        long sku = Stores.openSale(5, 1);
        OrderResult confirmed = OrderResult.confirmed(Stores.accepted(sku, "kept", Instant.now().plusSeconds(600)), Instant.now());
        OrderResult rejected = OrderResult.rejected(Stores.accepted(sku, "refused", Instant.now().plusSeconds(600)), RejectReason.SOLD_OUT,
                Instant.now());
        List<Delivery<OrderResult>> results = deliveries(Topic.ORDER_RESULTS, List.of(confirmed));
        List<Delivery<StockCompensation>> compensations = deliveries(Topic.STOCK_COMPENSATIONS, List.of(StockCompensation.forRejected(rejected)));
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

    private static <V> List<Delivery<V>> deliveries(Topic<V> topic, List<V> values) {
        return values.stream()
                .map(value -> new Delivery<>(value, new ConsumerRecord<>(topic.topicName(), 0, 0L, "key", topic.encode(value))))
                .toList();
    }
}
