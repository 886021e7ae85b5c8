package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.RedisAddress;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.redisstate.SaleStore.ReserveOutcome;
import io.seckill.runtime.Concurrently;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A SKU's stock split over buckets keeps every promise of one bucket: never oversold, the per-buyer limit exact, no
 * buyer told sold out while any bucket holds a unit, units back where they came from. Run on a single Redis
 * ({@code StockBucketsIT}) and on a Redis Cluster of three primaries ({@code StockBucketsClusterIT}).
 */
abstract class StockBucketsContract {

    private static final long HOUR = 3_600_000;
    private final SaleStore store = new SaleStore(LuaRunner.pipelined(RedisFixture.REDIS, 4));
    private final RedisProbe probe = new RedisProbe(RedisFixture.REDIS);
    private final long now = System.currentTimeMillis();

    @Test
    void buyersHomedOnAnEmptyBucketStillBuyWhileOtherBucketsHoldStock() {
        long sku = openSale(8, 4, 1);
        SaleLayout layout = store.layout(sku);
        List<String> homedOnFirst = buyersHomedOn(layout, 0, 8);
        // Bucket 0 holds 2 units; its 8 buyers want 8: the last 6 are served from the other buckets.
        for (String buyer : homedOnFirst) {
            assertThat(store.reserve(sku, order(), buyer, 1, now, false).reservation())
                    .as(buyer)
                    .isEqualTo(Reservation.RESERVED);
        }
        ReserveOutcome after = store.reserve(sku, order(), buyersHomedOn(layout, 1, 1).get(0), 1, now, false);
        assertThat(after).isEqualTo(new ReserveOutcome(Reservation.SOLD_OUT, 0, true));
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(0, 8));
        assertThat(bucketStocks(layout)).containsOnly(0L);
    }

    @Test
    void asManyBuyersAsUnitsAllWinThenEveryoneIsToldSoldOut() throws Exception {
        long sku = openSale(240, 8, 1);
        AtomicInteger next = new AtomicInteger();
        List<ReserveOutcome> outcomes = Concurrently.run(
                240, () -> store.reserve(sku, order(), "crowd-" + next.incrementAndGet(), 1, now, false));

        assertThat(outcomes).extracting(ReserveOutcome::reservation).containsOnly(Reservation.RESERVED);
        assertThat(store.reserve(sku, order(), "late", 1, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.SOLD_OUT, 0, true));
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(0, 240));
        assertThat(store.heldSince(sku, Long.MAX_VALUE)).hasSize(240);
    }

    @Test
    void aBuyerAtTheLimitIsRefusedWhicheverBucketServesThem() throws Exception {
        long sku = openSale(12, 4, 2);
        SaleLayout layout = store.layout(sku);
        String buyer = buyersHomedOn(layout, 2, 1).get(0);
        assertThat(store.reserve(sku, order(), buyer, 1, now, false).reservation()).isEqualTo(Reservation.RESERVED);
        for (String neighbour : buyersHomedOn(layout, 2, 3).subList(1, 3)) {
            store.reserve(sku, order(), neighbour, 1, now, false);
        }
        assertThat(bucketStock(layout.bucket(2))).as("the buyer's home bucket is empty").isZero();

        List<ReserveOutcome> racing = Concurrently.run(10, () -> store.reserve(sku, order(), buyer, 1, now, false));

        assertThat(racing)
                .filteredOn(outcome -> outcome.reservation() == Reservation.RESERVED)
                .as("one more, borrowed")
                .hasSize(1);
        assertThat(racing).filteredOn(outcome -> outcome.reservation() != Reservation.RESERVED)
                .extracting(ReserveOutcome::reservation).containsOnly(Reservation.PURCHASE_LIMIT_REACHED);
        assertThat(probe.heldBy(sku, buyer)).isEqualTo(2);
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(8, 4));
    }

    /** The limit is checked before any borrowing: a buyer at it, homed on an empty bucket, moves no unit. */
    @Test
    void aBuyerAtTheLimitMovesNoUnitsBetweenBuckets() {
        long sku = openSale(12, 4, 1);
        SaleLayout layout = store.layout(sku);
        List<String> homed = buyersHomedOn(layout, 1, 3);
        String buyer = homed.get(0);
        for (String each : homed) {
            assertThat(store.reserve(sku, order(), each, 1, now, false).reservation()).isEqualTo(Reservation.RESERVED);
        }
        assertThat(bucketStock(layout.bucket(1))).as("the buyer's home bucket is empty").isZero();
        List<Long> before = bucketStocks(layout);

        for (int i = 0; i < 20; i++) {
            assertThat(store.reserve(sku, order(), buyer, 1, now, false).reservation())
                    .isEqualTo(Reservation.PURCHASE_LIMIT_REACHED);
        }

        assertThat(bucketStocks(layout)).as("units moved for a buyer at the limit").isEqualTo(before);
    }

    @Test
    void settlementReturnsUnitsToTheBucketTheyCameFrom() {
        long sku = openSale(8, 4, 2);
        SaleLayout layout = store.layout(sku);
        String buyer = buyersHomedOn(layout, 3, 1).get(0);
        SkuKeys home = layout.homeOf(buyer);
        String released = order();
        String confirmed = order();
        store.reserve(sku, released, buyer, 1, now, false);
        store.reserve(sku, confirmed, buyer, 1, now, false);
        assertThat(bucketStock(home)).isZero();

        assertThat(store.release(sku, released, buyer)).isEqualTo(1);
        assertThat(store.release(sku, released, buyer)).as("once").isZero();
        assertThat(bucketStock(home)).isOne();
        assertThat(store.confirmAll(List.of(OrderResult.confirmed(
                        OrderRequested.of(confirmed, sku, buyer, 1, Instant.ofEpochMilli(now)), Instant.now()))))
                .isZero();
        assertThat(store.returnUnits(sku, confirmed, buyer, 1)).isEqualTo(SaleStore.Returned.RETURNED);
        assertThat(store.returnUnits(sku, confirmed, buyer, 1)).isEqualTo(SaleStore.Returned.ALREADY);
        assertThat(bucketStock(home)).isEqualTo(2);
        assertThat(probe.heldBy(sku, buyer)).isZero();
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(8, 0));
    }

    /** The process that took the units dies before they arrive: they are counted as moving, and finished once. */
    @Test
    void aTransferCutBetweenItsStepsIsFinishedOnce() throws Exception {
        long sku = openSale(8, 4, 1);
        SaleLayout layout = store.layout(sku);
        String transferId = "cut-" + UUID.randomUUID();
        assertThat(cutShort(sku, layout.buckets(), 1, 0, 1, transferId))
                .as("the process died between the steps")
                .isEqualTo(TransferCutShort.CUT);
        assertThat(bucketStock(layout.bucket(1))).isOne();
        assertThat(bucketStock(layout.bucket(0))).as("not arrived").isEqualTo(2);
        assertThat(store.state(sku)).as("moving units still count").isEqualTo(new RedisSkuState(8, 0));
        assertThat(store.finishTransfers(sku, Duration.ofMinutes(1))).as("within its taker's grace").isZero();

        assertThat(store.finishTransfers(sku, Duration.ZERO)).isOne();
        assertThat(store.finishTransfers(sku, Duration.ZERO)).as("once").isZero();
        assertThat(bucketStock(layout.bucket(0))).isEqualTo(3);
        assertThat((Long) new LuaRunner(RedisFixture.REDIS)
                        .run(
                                LuaScript.TRANSFER_IN,
                                layout.bucket(0).scriptKeys(),
                                List.of(
                                        transferId,
                                        "1",
                                        RedisFixture.REDIS.hget(layout.bucket(0).sale(), "generation"))))
                .as("arrived before: adds nothing")
                .isZero();
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(8, 0));
        assertThat(bucketStocks(layout).stream().mapToLong(Long::longValue).sum()).isEqualTo(8);
    }

    @Test
    void aRebuildWritesEveryBucketFromMySqlsFigures() {
        long sku = openSale(20, 4, 3);
        String held = order();
        Map<String, Integer> decided = Map.of("paid-buyer", 2);
        SaleStore.RebuildLease lease = store.lockRebuild(sku, Duration.ofMinutes(1)).orElseThrow();
        try {
            store.close(lease, 4);
            assertThat(store.reserve(sku, order(), "anyone", 1, now, false).reservation())
                    .isEqualTo(Reservation.NOT_LOADED);
            store.restore(
                    new SaleStore.Restored(
                            sku,
                            18,
                            3,
                            now - HOUR,
                            now + HOUR,
                            2,
                            List.of(new SaleStore.Held(new OrderFacts(held, sku, "waiting-buyer", 1), now)),
                            decided,
                            List.of("return:x"),
                            false,
                            4),
                    lease);
        } finally {
            store.unlockRebuild(lease);
        }
        SaleLayout layout = store.layout(sku);
        assertThat(layout.buckets()).isEqualTo(4);
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(17, 1));
        assertThat(probe.heldBy(sku, "paid-buyer")).isEqualTo(2);
        assertThat(store.reserve(sku, order(), "paid-buyer", 2, now, false).reservation())
                .isEqualTo(Reservation.PURCHASE_LIMIT_REACHED);
        assertThat(store.release(sku, held, "waiting-buyer")).isOne();
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(18, 0));
    }

    @Test
    void aSaleDefinedAgainWithOtherBucketsLeavesNothingOfTheOldOnes() {
        long sku = openSale(9, 3, 1);
        SaleLayout three = store.layout(sku);
        assertThat(store.closeSale(sku)).isTrue();
        assertThat(store.loadSale(sku, 5, 1, 1, now - HOUR, now + HOUR, 2, false)).isEqualTo(SaleStore.SaleLoad.LOADED);
        assertThat(three.all()).allSatisfy(bucket -> assertThat(RedisFixture.REDIS.exists(bucket.stock())).isFalse());
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(5, 0));
        assertThat(store.reserve(sku, order(), "anyone", 1, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.RESERVED, 4, false));
    }

    private long openSale(int stock, int buckets, int limit) {
        long sku = RedisFixture.newSkuId();
        assertThat(store.loadSale(sku, stock, buckets, limit, now - HOUR, now + HOUR, 1, false))
                .isEqualTo(SaleStore.SaleLoad.LOADED);
        return sku;
    }

    private static List<String> buyersHomedOn(SaleLayout layout, int bucket, int count) {
        String run = UUID.randomUUID().toString();
        return IntStream.iterate(0, n -> n + 1).mapToObj(n -> run + "-" + n)
                .filter(buyer -> layout.homeOf(buyer).bucket() == bucket).limit(count).toList();
    }

    private static long bucketStock(SkuKeys bucket) {
        return Long.parseLong(RedisFixture.REDIS.get(bucket.stock()));
    }

    private static List<Long> bucketStocks(SaleLayout layout) {
        return layout.all().stream().map(StockBucketsContract::bucketStock).toList();
    }

    private static String order() {
        return UUID.randomUUID().toString();
    }

    /** Runs {@link TransferCutShort} in a JVM of its own. @return its exit status */
    private static int cutShort(long sku, int buckets, int donor, int receiver, int wanted, String transferId)
            throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        TransferCutShort.class.getName(),
                        Long.toString(sku),
                        Integer.toString(buckets),
                        Integer.toString(donor),
                        Integer.toString(receiver),
                        Integer.toString(wanted),
                        transferId)
                .redirectErrorStream(true);
        RedisAddress redis = LocalInfrastructure.get().addresses().redis();
        builder.environment().put(RedisAddress.URL, redis.url());
        builder.environment().put(RedisAddress.TOPOLOGY, redis.topology().label());
        Process process = builder.start();
        List<String> output = new ArrayList<>();
        try (var lines = process.inputReader(StandardCharsets.UTF_8)) {
            lines.lines().forEach(output::add);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the process ended: %s", output).isTrue();
        return process.exitValue();
    }
}
