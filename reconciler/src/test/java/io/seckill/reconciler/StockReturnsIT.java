package io.seckill.reconciler;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.runtime.TopicLayout;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * A cancelled order's units reach MySQL, then Redis, once however often its event comes (a redelivery, the relay's
 * re-send), not at all when Redis was rebuilt from a MySQL that already held them, and also when the
 * event's direct publish was lost: the relay sends it, and never again once it was consumed.
 */
class StockReturnsIT {

    private final StockReturns returns = new StockReturns(Stores.sql(), new Orders(), new ReturnedUnits(), new OrderEvents(), Stores.SALES, Stores.UNSUPPORTED,
            Clock.systemUTC(), Stores.metrics());
    private final OrderEndings endings = new OrderEndings(Duration.ofSeconds(10));

    @Test
    void aCancellationDeliveredThreeTimesGivesItsUnitsBackOnce() throws Exception {
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = confirmedThenCancelled(sku, "returner");
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(8, 0));
        assertThat(new Skus().stock(Stores.sql(), sku)).as("the cancellation itself writes no stock").contains(8);
        assertThat(new OrderEvents().returningQuantities(Stores.sql())).as("in neither store yet: no drift").doesNotContainKey(sku);

        returns.onEvents(List.of(delivery(cancelled), delivery(cancelled)));
        returns.onEvents(List.of(delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "returner")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
        assertThat(Stores.sql().fetchValue(USER_PURCHASES.QUANTITY, USER_PURCHASES.SKU_ID.eq(sku))).isZero();
        assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId()))).isNotNull();
        assertThat(new OrderEvents().returningQuantities(Stores.sql())).doesNotContainKey(sku);
    }

    @Test
    void aRedisRebuiltAfterMySqlTookTheUnitsBackCountsThemAndALateEventAddsNothing() throws Exception {
        RedisRecovery recovery = recovery();
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = confirmedThenCancelled(sku, "rebuilt");
        new ReturnedUnits().restore(Stores.sql(), List.of(cancelled.orderId()), Instant.now());

        Stores.REDIS.flushAll();
        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku)).as("MySQL holds the cancelled units again").isEqualTo(new SaleStore.RedisSkuState(10, 0));
        returns.onEvents(List.of(delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "rebuilt")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
    }

    @Test
    void aRedisRebuiltBeforeMySqlTookTheUnitsBackGetsThemFromTheEventOnce() throws Exception {
        RedisRecovery recovery = recovery();
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = confirmedThenCancelled(sku, "rebuilt-early");

        Stores.REDIS.flushAll();
        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku)).as("neither store holds the units yet").isEqualTo(new SaleStore.RedisSkuState(8, 0));
        returns.onEvents(List.of(delivery(cancelled)));
        returns.onEvents(List.of(delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "rebuilt-early")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
    }

    private static RedisRecovery recovery() {
        RedisRecovery recovery = new RedisRecovery(Stores.sql(), new Skus(), new SaleSnapshots(), Stores.SALES, new RedisEpoch(Stores.LUA), Duration.ZERO,
                Stores.metrics());
        recovery.rebuildIfLost();
        return recovery;
    }

    @Test
    void aCancellationWhosePublishWasLostIsSentByTheRelayAndItsUnitsReachRedis() throws Exception {
        KafkaClients.ensureTopics(Stores.INFRA.kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = confirmedThenCancelled(sku, "unpublished");
        // Past the relay's grace: the event was never published and never consumed.
        Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.producer(Stores.INFRA.kafka(), "lifecycle-relay-test"));
             KafkaProbe kafka = new KafkaProbe(Stores.INFRA.kafka())) {
            LifecycleRelay relay = new LifecycleRelay(new RelaySends(Stores.sql(), new OrderEvents(), producer, Duration.ofSeconds(1), later),
                    new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)), 500, later);

            assertThat(relay.relayDue()).isPositive();
            assertThat(relay.relayDue()).as("sent again only after its backoff").isZero();
            List<OrderLifecycleEvent> sent = kafka.readAll(Topic.ORDER_LIFECYCLE.topicName()).stream()
                    .filter(record -> cancelled.orderId().equals(new String(record.key(), StandardCharsets.UTF_8)))
                    .map(record -> Topic.ORDER_LIFECYCLE.decode(record.value()))
                    .toList();
            assertThat(sent).containsExactly(cancelled);

            returns.onEvents(sent.stream().map(StockReturnsIT::delivery).toList());

            assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
            LifecycleRelay muchLater = new LifecycleRelay(new RelaySends(Stores.sql(), new OrderEvents(), producer, Duration.ofSeconds(1),
                    Clock.offset(later, Duration.ofHours(1))), new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)), 500,
                    Clock.offset(later, Duration.ofHours(1)));
            assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId()))).isNotNull();
            assertThat(muchLater.relayDue()).as("a consumed event is never sent again").isZero();
        }
    }

    /**
     * A forged OrderCancelled, well-formed, for an order that is confirmed and unpaid; another for an order MySQL never
     * decided; a true cancellation restated with more units: no unit goes back to Redis, no lifecycle row is completed,
     * each refusal is counted.
     */
    @Test
    void cancellationsMySqlDoesNotShowPutNothingBack() throws Exception {
        long sku = Stores.openSale(10, 2);
        OrderRequested confirmed = OrderRequested.of(UUID.randomUUID().toString(), sku, "still-confirmed", 1, Instant.now());
        Stores.SALES.reserve(sku, confirmed.orderId(), "still-confirmed", 1, confirmed.requestedAt().toEpochMilli(), false);
        Stores.SALES.confirmAll(List.of(Stores.decided(confirmed, OrderResult.confirmed(confirmed, Instant.now()))));
        OrderLifecycleEvent cancelled = confirmedThenCancelled(sku, "cancelled");
        double before = Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.NO_ORDER_ROW);

        returns.onEvents(List.of(
                delivery(new OrderCancelled(OrderLifecycleEvent.CURRENT_VERSION, confirmed.orderId(), sku, "still-confirmed", 1, Instant.now())),
                delivery(new OrderCancelled(OrderLifecycleEvent.CURRENT_VERSION, UUID.randomUUID().toString(), sku, "nobody", 2, Instant.now())),
                delivery(new OrderCancelled(OrderLifecycleEvent.CURRENT_VERSION, cancelled.orderId(), sku, "cancelled", 5, cancelled.at()))));

        assertThat(Stores.SALES.state(sku)).as("1 + 2 units still sold").isEqualTo(new SaleStore.RedisSkuState(7, 0));
        assertThat(Stores.PROBE.heldBy(sku, "still-confirmed")).isEqualTo(1);
        assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId()))).isNull();
        assertThat(Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.NO_ORDER_ROW)).isEqualTo(before + 3);

        returns.onEvents(List.of(delivery(cancelled)));
        assertThat(Stores.SALES.state(sku)).as("the true cancellation still counts").isEqualTo(new SaleStore.RedisSkuState(9, 0));
    }

    /** An order of 2 units confirmed in both stores, as the sink and the reconciler leave it, then cancelled by its buyer. */
    private OrderLifecycleEvent confirmedThenCancelled(long sku, String buyer) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, buyer, 2, Instant.now());
        Stores.SALES.reserve(sku, order.orderId(), buyer, 2, order.requestedAt().toEpochMilli(), false);
        OrderResult confirmed = OrderResult.confirmed(order, Instant.now());
        // As the sink commits it.
        Stores.owner().transaction(configuration -> {
            DSLContext tx = DSL.using(configuration);
            new Orders().insert(tx, List.of(order), List.of(confirmed), Duration.ofMinutes(15));
            new Skus().charge(tx, sku, 2, Instant.now());
            tx.insertInto(USER_PURCHASES).set(USER_PURCHASES.SKU_ID, sku).set(USER_PURCHASES.USER_ID, buyer)
                    .set(USER_PURCHASES.QUANTITY, 2).execute();
        });
        Stores.SALES.confirmAll(List.of(confirmed));
        // As the ingress's buyer cancels it.
        return endings.cancel(Stores.owner(), order.orderId(), buyer, Instant.now()).event().orElseThrow();
    }

    private static Delivery<OrderLifecycleEvent> delivery(OrderLifecycleEvent event) {
        return new Delivery<>(event, new ConsumerRecord<>(Topic.ORDER_LIFECYCLE.topicName(), 0, 0, event.orderId(),
                Topic.ORDER_LIFECYCLE.encode(event)));
    }
}
