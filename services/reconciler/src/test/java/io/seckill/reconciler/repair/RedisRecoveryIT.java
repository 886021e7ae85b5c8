package io.seckill.reconciler.repair;

import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.Env;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.processdriver.Signals;
import io.seckill.reconciler.Stores;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Redis loses everything (FLUSHALL) in the middle of a sale: the reconciler notices and rebuilds the
 * sale from MySQL minus what is still in flight, so buyers are served again with the right stock, the
 * orders in flight settle once, and every buyer's limit still counts what they hold.
 */
class RedisRecoveryIT {

    private final RedisEpoch epoch = new RedisEpoch(Stores.LUA);
    private final RedisRecovery recovery = recovery(Duration.ZERO);

    /** A rebuilder of this test's epoch that waits {@code settle} between closing the lost sales and restoring them. */
    private RedisRecovery recovery(Duration settle) {
        return new RedisRecovery(
                Stores.sql(),
                new Skus(),
                new SaleSnapshots(),
                Stores.SALES,
                Stores.ROOMS,
                epoch,
                settle,
                Stores.metrics());
    }

    @Test
    void aWaitingRoomLostWithRedisIsOpenedAgainFromMySqlBeforeItsSaleSells() {
        recovery.rebuildIfLost();
        long sku = Stores.newSkuId();
        Instant now = Instant.now();
        long startsAt = now.minusSeconds(60).toEpochMilli();
        long endsAt = now.plusSeconds(3600).toEpochMilli();
        new Skus()
                .define(
                        Stores.owner(),
                        new Skus.Sale(
                                sku, "roomed", 10, 1, Instant.ofEpochMilli(startsAt), Instant.ofEpochMilli(endsAt),
                                true, 1, 200),
                        now);
        long version = new Skus().current(Stores.sql(), sku).orElseThrow().version();
        Stores.ROOMS.define(sku, version, 200, 1, startsAt, endsAt);
        Stores.SALES.loadSale(sku, 10, 1, 1, startsAt, endsAt, version, true);

        String lostLine = Stores.ROOMS.room(sku).orElseThrow().line();
        Stores.REDIS.flushAll();
        assertThat(Stores.ROOMS.room(sku)).isEmpty();
        assertThat(recovery.rebuildIfLost()).isPositive();

        WaitingRoom.Room restored = Stores.ROOMS.room(sku).orElseThrow();
        assertThat(restored).isEqualTo(new WaitingRoom.Room(200, startsAt, endsAt, 1, restored.line()));
        assertThat(restored.line()).as("the lost line's tickets name another").isNotEqualTo(lostLine);
        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(10);
    }

    @Test
    void aFlushedRedisIsRebuiltFromMySqlMinusWhatIsInFlight() {
        recovery.rebuildIfLost();
        long sku = Stores.openSale(10, 3);
        OrderRequested confirmed = Stores.accepted(sku, "early", Instant.now().plusSeconds(600));
        decideConfirmed(sku, confirmed);
        OrderRequested inFlight = Stores.accepted(sku, "early", Instant.now().plusSeconds(600));
        OrderRequested other = Stores.accepted(sku, "other", Instant.now().plusSeconds(600));
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(7, 2));

        Stores.REDIS.flushAll();
        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(-1);
        assertThat(recovery.rebuildIfLost()).isPositive();

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(7, 2));
        assertThat(Stores.PROBE.heldBy(sku, "early")).isEqualTo(2);
        assertThat(Stores.PROBE.heldBy(sku, "other")).isEqualTo(1);
        assertThat(recovery.rebuildIfLost()).as("nothing lost since").isZero();
        // The orders in flight settle as they would have: one confirmed, one released.
        Stores.SALES.confirmAll(List.of(OrderResult.confirmed(inFlight, Instant.now())));
        assertThat(Stores.SALES.release(sku, other.orderId(), other.userId())).isEqualTo(1);
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(8, 0));
        assertThat(Stores.SALES
                        .reserve(
                                sku,
                                "01a22969-0000-7000-8000-000000000001",
                                "early",
                                2,
                                Instant.now().toEpochMilli(),
                                false)
                        .reservation())
                .as("the early buyer holds 2 of 3")
                .isEqualTo(SaleStore.Reservation.PURCHASE_LIMIT_REACHED);
    }

    /** A SKU split over buckets is rebuilt into as many, each buyer's reservations and units in their home bucket. */
    @Test
    void aFlushedSplitSaleIsRebuiltIntoItsBuckets() {
        recovery.rebuildIfLost();
        long sku = Stores.openSplitSale(Stores.newSkuId(), 12, 2, 4);
        List<OrderRequested> held = IntStream.range(0, 6)
                .mapToObj(n -> Stores.accepted(sku, "split-" + n, Instant.now().plusSeconds(600)))
                .toList();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(6, 6));

        Stores.REDIS.flushAll();
        assertThat(recovery.rebuildIfLost()).isPositive();

        assertThat(Stores.SALES.layout(sku).buckets()).isEqualTo(4);
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(6, 6));
        for (OrderRequested order : held) {
            assertThat(Stores.SALES.release(sku, order.orderId(), order.userId()))
                    .as("settled in its buyer's home bucket")
                    .isOne();
        }
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(12, 0));
    }

    @Test
    void aRestartedRedisIsRebuiltAndARequestedRebuildToo() {
        recovery.rebuildIfLost();
        long sku = Stores.openSale(5, 1);
        Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        Stores.REDIS.set(epoch.markerKey(epoch.primaries().get(0)), "a-run-before-the-restart");
        Stores.REDIS.set("seckill:{sku:" + sku + "}:stock", "5");

        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(4, 1));

        epoch.requestRebuild();
        assertThat(recovery.rebuildIfLost()).isPositive();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(4, 1));
    }

    /**
     * A first start (or a flush followed by new definitions): no marker, but the sales Redis holds were
     * loaded from MySQL since. Rebuilding them would wipe a buyer caught between the reserve and the
     * outbox commit: they are adopted as they are.
     */
    @Test
    void salesLoadedSinceTheMarkerWentAreAdoptedNotRebuilt() {
        Stores.REDIS.del(epoch.markerKey(epoch.primaries().get(0)));
        long sku = Stores.openSale(5, 2);
        assertThat(Stores.SALES
                        .reserve(
                                sku,
                                UUID.randomUUID().toString(),
                                "in-flight",
                                2,
                                Instant.now().toEpochMilli(),
                                false)
                        .reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);

        recovery.rebuildIfLost();

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(3, 2));
        assertThat(Stores.PROBE.heldBy(sku, "in-flight")).isEqualTo(2);
        assertThat(recovery.rebuildIfLost()).as("marked now").isZero();
    }

    /**
     * An order reserved just before a rebuild closes its sale, whose outbox row commits while the sale is closed (its
     * ingress was slow): with the reconciler's default settle the rebuild reads MySQL only once it has passed, so the
     * order is in the rebuilt ledger and its unit is not sold twice.
     */
    @Test
    void anOrderRecordedWhileItsSaleIsClosedIsInTheRebuiltLedger() throws Exception {
        RedisRecovery settling = recovery(RepairSettings.rebuildSettle(new Env(Map.of())));
        recovery.rebuildIfLost();
        long sku = Stores.openSale(5, 2);
        OrderRequested late = OrderRequested.of(UUID.randomUUID().toString(), sku, "slow-ingress", 1, Instant.now());
        assertThat(Stores.SALES
                        .reserve(
                                sku,
                                late.orderId(),
                                late.userId(),
                                1,
                                late.requestedAt().toEpochMilli(),
                                false)
                        .reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);

        epoch.requestRebuild();
        CompletableFuture<Integer> rebuilding = CompletableFuture.supplyAsync(settling::rebuildIfLost);
        await().atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> Stores.SALES.state(sku).stock() < 0);
        // The ingress's commit lands a second after the close: within the settle, long after a read that did not wait.
        Thread.sleep(1_000);
        Stores.recorded(late, Instant.now().plusSeconds(600));

        assertThat(rebuilding.get(30, TimeUnit.SECONDS)).isPositive();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(4, 1));
        assertThat(Stores.SALES.heldSince(sku, Long.MAX_VALUE))
                .extracting(held -> held.order().orderId())
                .containsExactly(late.orderId());
    }

    /**
     * Redis stops (SIGSTOP) in the middle of a rebuild and stays stopped while the rebuilder gives its locks back: once
     * it answers again, the same reconciler's next check gives back what it still holds and finishes the rebuild, long
     * before the locks' lease would have freed them. The rebuild holds a lock per SKU: the stopped Redis costs it one
     * timeout, not one per lock.
     */
    @Test
    void aRebuildCutShortByAStoppedRedisIsFinishedAtTheNextCheck() throws Exception {
        RedisRecovery settling = recovery(Duration.ofSeconds(1));
        recovery.rebuildIfLost();
        long sku = Stores.openSale(5, 2);
        Stores.accepted(sku, "kept", Instant.now().plusSeconds(600));
        List<Long> others = IntStream.range(0, 12).mapToObj(i -> Stores.openSale(5, 2)).toList();
        long redisPid = redisPid();

        epoch.requestRebuild();
        CompletableFuture<Integer> cutShort = CompletableFuture.supplyAsync(settling::rebuildIfLost);
        await().atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> Stream.concat(Stream.of(sku), others.stream())
                        .allMatch(closed -> Stores.SALES.state(closed).stock() < 0));
        Signals.send(redisPid, "STOP");
        try {
            // Redis's timeout is 2 s: one per lock would be past 26 s.
            await().atMost(Duration.ofSeconds(15)).until(cutShort::isDone);
        } finally {
            Signals.send(redisPid, "CONT");
        }
        assertThat(cutShort).isCompletedExceptionally();

        assertThat(settling.rebuildIfLost()).isPositive();
        assertThat(epoch.allIntact()).isTrue();
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(4, 1));
    }

    private long redisPid() {
        Matcher pid = Pattern.compile("process_id:(\\d+)").matcher(epoch.primaries().get(0).info("server"));
        assertThat(pid.find()).as("Redis reports its pid").isTrue();
        return Long.parseLong(pid.group(1));
    }

    /** What the sink does for a confirmed order, and the settler after it. */
    private static void decideConfirmed(long sku, OrderRequested order) {
        OrderResult result = OrderResult.confirmed(order, Instant.now());
        Stores.owner().transaction(configuration -> {
            DSLContext tx = DSL.using(configuration);
            new Orders().insert(tx, List.of(order), List.of(result), Duration.ofMinutes(15));
            new Skus().charge(tx, sku, order.quantity(), Instant.now());
            tx.insertInto(USER_PURCHASES).set(USER_PURCHASES.SKU_ID, sku).set(USER_PURCHASES.USER_ID, order.userId())
                    .set(USER_PURCHASES.QUANTITY, order.quantity()).execute();
            new Outbox().complete(tx, List.of(order.orderId()), Instant.now());
        });
        Stores.SALES.confirmAll(List.of(result));
    }
}
