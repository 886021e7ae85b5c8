package io.seckill.reconciler.lifecycle;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.Stores;
import io.seckill.reconciler.repair.RedisRecovery;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A cancelled order's units reach MySQL, then Redis, once however often its event comes (a redelivery, the relay's
 * re-send), and not at all when Redis was rebuilt from a MySQL that already held them.
 */
class StockReturnsIT {

    private final StockReturns returns = new StockReturns(
            Stores.sql(),
            new Orders(),
            new ReturnedUnits(),
            new OrderEvents(),
            Stores.SALES,
            Stores.UNSUPPORTED,
            Clock.systemUTC(),
            Stores.metrics());

    @Test
    void aCancellationDeliveredThreeTimesGivesItsUnitsBackOnce() throws Exception {
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = Stores.confirmedThenCancelled(sku, "returner");
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(8, 0));
        assertThat(new Skus().stock(Stores.sql(), sku)).as("the cancellation itself writes no stock").contains(8);
        assertThat(new OrderEvents().returningQuantities(Stores.sql()))
                .as("in neither store yet: no drift")
                .doesNotContainKey(sku);

        returns.onEvents(List.of(Stores.delivery(cancelled), Stores.delivery(cancelled)));
        returns.onEvents(List.of(Stores.delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "returner")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
        assertThat(Stores.sql().fetchValue(USER_PURCHASES.QUANTITY, USER_PURCHASES.SKU_ID.eq(sku))).isZero();
        assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId())))
                .isNotNull();
        assertThat(new OrderEvents().returningQuantities(Stores.sql())).doesNotContainKey(sku);
    }

    @Test
    void aRedisRebuiltAfterMySqlTookTheUnitsBackCountsThemAndALateEventAddsNothing() throws Exception {
        RedisRecovery recovery = recovery();
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = Stores.confirmedThenCancelled(sku, "rebuilt");
        new ReturnedUnits().restore(Stores.sql(), List.of(cancelled.orderId()), Instant.now());

        Stores.REDIS.flushAll();
        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku))
                .as("MySQL holds the cancelled units again")
                .isEqualTo(new SaleStore.RedisSkuState(10, 0));
        returns.onEvents(List.of(Stores.delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "rebuilt")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
    }

    @Test
    void aRedisRebuiltBeforeMySqlTookTheUnitsBackGetsThemFromTheEventOnce() throws Exception {
        RedisRecovery recovery = recovery();
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = Stores.confirmedThenCancelled(sku, "rebuilt-early");

        Stores.REDIS.flushAll();
        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku))
                .as("neither store holds the units yet")
                .isEqualTo(new SaleStore.RedisSkuState(8, 0));
        returns.onEvents(List.of(Stores.delivery(cancelled)));
        returns.onEvents(List.of(Stores.delivery(cancelled)));

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
        assertThat(Stores.PROBE.heldBy(sku, "rebuilt-early")).isZero();
        assertThat(new Skus().stock(Stores.sql(), sku)).contains(10);
    }

    private static RedisRecovery recovery() {
        RedisRecovery recovery = new RedisRecovery(
                Stores.sql(),
                new Skus(),
                new SaleSnapshots(),
                Stores.SALES,
                Stores.ROOMS,
                new RedisEpoch(Stores.LUA),
                Duration.ZERO,
                Stores.metrics());
        recovery.rebuildIfLost();
        return recovery;
    }

    /**
     * A forged OrderCancelled, well-formed, for an order that is confirmed and unpaid; another for an order MySQL never
     * decided; a true cancellation restated with more units: no unit goes back to Redis, no lifecycle row is completed,
     * each refusal is counted.
     */
    @Test
    void cancellationsMySqlDoesNotShowPutNothingBack() throws Exception {
        long sku = Stores.openSale(10, 2);
        OrderRequested confirmed =
                OrderRequested.of(UUID.randomUUID().toString(), sku, "still-confirmed", 1, Instant.now());
        Stores.SALES.reserve(
                sku,
                confirmed.orderId(),
                "still-confirmed",
                1,
                confirmed.requestedAt().toEpochMilli(),
                false);
        Stores.SALES.confirmAll(List.of(Stores.decided(confirmed, OrderResult.confirmed(confirmed, Instant.now()))));
        OrderLifecycleEvent cancelled = Stores.confirmedThenCancelled(sku, "cancelled");
        double before = Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.NO_ORDER_ROW);

        returns.onEvents(List.of(
                Stores.delivery(new OrderCancelled(
                        OrderLifecycleEvent.CURRENT_VERSION,
                        confirmed.orderId(),
                        sku,
                        "still-confirmed",
                        1,
                        Instant.now())),
                Stores.delivery(new OrderCancelled(
                        OrderLifecycleEvent.CURRENT_VERSION,
                        UUID.randomUUID().toString(),
                        sku,
                        "nobody",
                        2,
                        Instant.now())),
                Stores.delivery(new OrderCancelled(
                        OrderLifecycleEvent.CURRENT_VERSION,
                        cancelled.orderId(),
                        sku,
                        "cancelled",
                        5,
                        cancelled.at()))));

        assertThat(Stores.SALES.state(sku)).as("1 + 2 units still sold").isEqualTo(new SaleStore.RedisSkuState(7, 0));
        assertThat(Stores.PROBE.heldBy(sku, "still-confirmed")).isEqualTo(1);
        assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId())))
                .isNull();
        assertThat(Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW)
                + Stores.refused(Topic.ORDER_LIFECYCLE, UnsupportedRecords.Reason.NO_ORDER_ROW)).isEqualTo(before + 3);

        returns.onEvents(List.of(Stores.delivery(cancelled)));
        assertThat(Stores.SALES.state(sku))
                .as("the true cancellation still counts")
                .isEqualTo(new SaleStore.RedisSkuState(9, 0));
    }
}
