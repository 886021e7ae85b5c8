package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.redisstate.SaleStore.RebuildLease;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.redisstate.SaleStore.ReserveOutcome;
import io.seckill.redisstate.SaleStore.SaleLoad;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The reservation rules, as the Lua scripts apply them on a real Redis, and their typed replies. */
class SaleStoreIT {

    private static final long HOUR = 3_600_000;
    private final SaleStore store = new SaleStore(new LuaRunner(RedisFixture.REDIS));
    private final RedisProbe probe = new RedisProbe(RedisFixture.REDIS);
    private final long now = System.currentTimeMillis();

    @Test
    void everyReplyCodeOfTheScriptsIsATypedValue() {
        assertThat(codes(LuaScript.RESERVE, "\\{'([A-Z_]+)'")).isEqualTo(names(Reservation.values()));
        assertThat(codes(LuaScript.LOAD_SALE, "return '([A-Z_]+)'")).isEqualTo(names(SaleLoad.values()));
        assertThat(codes(LuaScript.IDEMPOTENCY_CLAIM, "\\{'([A-Z_]+)'"))
                .isEqualTo(names(IdempotencyClaims.ClaimState.values()));
    }

    @Test
    void aReservationTakesStockCountsTheBuyerAndIsLedgered() {
        long sku = openSale(10, 3);
        assertThat(store.reserve(sku, order(), "ann", 2, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.RESERVED, 8, false));
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(8, 2));
        assertThat(probe.heldBy(sku, "ann")).isEqualTo(2);
    }

    @Test
    void eachRefusalSaysWhyAndWhatGoesWithIt() {
        long sku = openSale(3, 2);
        long unknown = RedisFixture.newSkuId();
        long later = RedisFixture.newSkuId();
        store.loadSale(later, 5, 1, 1, now + HOUR, now + 2 * HOUR, 1, false);
        long over = RedisFixture.newSkuId();
        store.loadSale(over, 5, 1, 1, now - 2 * HOUR, now - HOUR, 1, false);

        assertThat(store.reserve(unknown, order(), "bob", 1, now, false).reservation())
                .isEqualTo(Reservation.NOT_LOADED);
        assertThat(store.reserve(later, order(), "bob", 1, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.SALE_NOT_STARTED, now + HOUR, false));
        assertThat(store.reserve(over, order(), "bob", 1, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.SALE_ENDED, now - HOUR, false));
        assertThat(store.reserve(sku, order(), "bob", 3, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.QUANTITY_OVER_LIMIT, 2, false));
        String orderId = order();
        assertThat(store.reserve(sku, orderId, "bob", 1, now, false).reservation()).isEqualTo(Reservation.RESERVED);
        assertThat(store.reserve(sku, orderId, "cid", 1, now, false).reservation())
                .isEqualTo(Reservation.DUPLICATE_ORDER);
        assertThat(store.reserve(sku, order(), "bob", 2, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.PURCHASE_LIMIT_REACHED, 2, false));
        assertThat(store.reserve(sku, order(), "cid", 2, now, false).reservation()).isEqualTo(Reservation.RESERVED);
        assertThat(store.reserve(sku, order(), "dan", 2, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.SOLD_OUT, 0, true));
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(0, 3));
    }

    @Test
    void notEnoughStockForTheQuantitySaysHowMuchIsLeft() {
        long sku = openSale(1, 2);
        assertThat(store.reserve(sku, order(), "eve", 2, now, false))
                .isEqualTo(new ReserveOutcome(Reservation.INSUFFICIENT_STOCK, 1, false));
    }

    @Test
    void aReleaseGivesStockAndTheBuyersSlotBackOnce() {
        long sku = openSale(5, 1);
        String orderId = order();
        store.reserve(sku, orderId, "fay", 1, now, false);

        assertThat(store.release(sku, orderId, "fay")).isEqualTo(1);
        assertThat(store.release(sku, orderId, "fay")).isZero();
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(5, 0));
        assertThat(probe.heldBy(sku, "fay")).isZero();
    }

    /**
     * A rebuild writes a sale in steps and sets stock and pending from its MySQL snapshot in the last one: a settlement
     * landing between the steps would be undone by it (pending above the ledger for good, the units never back). Both
     * settlements refuse until the sale is open; the ledger keeps the orders, and they settle once it is.
     */
    @Test
    void settlementsDuringARebuildAreRefusedAndSettleOnceTheSaleIsOpen() {
        long sku = RedisFixture.newSkuId();
        String rejected = order();
        String confirmed = order();
        OrderResult confirmation = OrderResult.confirmed(
                OrderRequested.of(confirmed, sku, "ivy", 2, Instant.ofEpochMilli(now)), Instant.now());
        RebuildLease lease = store.lockRebuild(sku, Duration.ofMinutes(1)).orElseThrow();
        try {
            store.restoreStep(new SkuKeys(sku), lease, "BEGIN", List.of());
            store.restoreStep(
                    new SkuKeys(sku), lease, "ADD", List.of(rejected, "hal|1|" + now, confirmed, "ivy|2|" + now));

            assertThat(store.release(sku, rejected, "hal")).isEqualTo(SaleStore.NOT_LOADED);
            assertThat(store.confirmAll(List.of(confirmation))).as("refused").isOne();
            store.restoreStep(
                    new SkuKeys(sku),
                    lease,
                    "OPEN",
                    List.of("7", "3", "2", Long.toString(now - HOUR), Long.toString(now + HOUR), "1", "0", "g1"));
        } finally {
            store.unlockRebuild(lease);
        }

        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(7, 3));
        assertThat(store.heldSince(sku, Long.MAX_VALUE))
                .extracting(held -> held.order().orderId())
                .containsExactlyInAnyOrder(rejected, confirmed);
        assertThat(store.release(sku, rejected, "hal")).isEqualTo(1);
        assertThat(store.confirmAll(List.of(confirmation))).isZero();
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(8, 0));
        assertThat(probe.heldBy(sku, "hal")).isZero();
        assertThat(probe.heldBy(sku, "ivy")).isEqualTo(2);
    }

    @Test
    void aSaleThatWantsPassesSellsOnlyToRequestsThatShowedOneHoweverItWasLoaded() {
        long loaded = RedisFixture.newSkuId();
        assertThat(store.loadSale(loaded, 5, 1, 2, now - HOUR, now + HOUR, 1, true)).isEqualTo(SaleLoad.LOADED);
        assertThat(store.reserve(loaded, order(), "kim", 1, now, false).reservation())
                .isEqualTo(Reservation.PASS_REQUIRED);
        assertThat(store.state(loaded)).as("nothing reserved").isEqualTo(new RedisSkuState(5, 0));
        assertThat(store.reserve(loaded, order(), "kim", 1, now, true).reservation()).isEqualTo(Reservation.RESERVED);
        assertThat(store.window(loaded)).contains(new SaleStore.SaleWindow(now - HOUR, now + HOUR, true));

        assertThat(store.closeSale(loaded)).isFalse();
        long reopened = openSale(5, 2);
        assertThat(store.closeSale(reopened)).isTrue();
        store.reopenSale(reopened, 2, now - HOUR, now + HOUR, 1, true);
        assertThat(store.reserve(reopened, order(), "kim", 1, now, false).reservation())
                .isEqualTo(Reservation.PASS_REQUIRED);

        long rebuilt = RedisFixture.newSkuId();
        RebuildLease lease = store.lockRebuild(rebuilt, Duration.ofMinutes(1)).orElseThrow();
        try {
            store.restore(
                    new SaleStore.Restored(
                            rebuilt, 5, 2, now - HOUR, now + HOUR, 1, List.of(), Map.of(), List.of(), true, 1),
                    lease);
        } finally {
            store.unlockRebuild(lease);
        }
        assertThat(store.reserve(rebuilt, order(), "kim", 1, now, false).reservation())
                .isEqualTo(Reservation.PASS_REQUIRED);
        assertThat(store.reserve(openSale(5, 2), order(), "kim", 1, now, false).reservation())
                .as("a sale that opted out")
                .isEqualTo(Reservation.RESERVED);
    }

    /**
     * A rebuilder paused past its lease finds the lock the next one's: none of its steps writes over the sale rebuilt
     * since.
     */
    @Test
    void aRebuilderWhoseLeaseRanOutWritesNothingOverTheNextOnesSale() {
        long sku = RedisFixture.newSkuId();
        RebuildLease paused = store.lockRebuild(sku, Duration.ofMillis(100)).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> !RedisFixture.REDIS.exists(new SkuKeys(sku).rebuildLock()));
        RebuildLease next = store.lockRebuild(sku, Duration.ofMinutes(1)).orElseThrow();
        try {
            store.restore(sale(sku, 5), next);
            String order = order();
            assertThat(store.reserve(sku, order, "joe", 1, now, false).reservation()).isEqualTo(Reservation.RESERVED);

            assertThatThrownBy(() -> store.restore(sale(sku, 9), paused)).isInstanceOf(SaleStore.RebuildFenced.class);

            assertThat(store.state(sku)).isEqualTo(new RedisSkuState(4, 1));
            assertThat(store.heldSince(sku, Long.MAX_VALUE))
                    .extracting(held -> held.order().orderId())
                    .containsExactly(order);
            store.unlockRebuild(paused);
            assertThat(store.lockRebuild(sku, Duration.ofMinutes(1)))
                    .as("the late unlock left the next rebuilder's lock alone")
                    .isEmpty();
        } finally {
            store.unlockRebuild(next);
        }
    }

    private SaleStore.Restored sale(long sku, int stock) {
        return new SaleStore.Restored(
                sku, stock, 2, now - HOUR, now + HOUR, 1, List.of(), Map.of(), List.of(), false, 1);
    }

    @Test
    void aConfirmationKeepsTheUnitsSoldAndClosesTheLedgerEntrySoNoReleaseFollows() {
        long sku = openSale(5, 1);
        String orderId = order();
        store.reserve(sku, orderId, "gus", 1, now, false);
        OrderRequested requested = OrderRequested.of(orderId, sku, "gus", 1, Instant.ofEpochMilli(now));

        store.confirmAll(List.of(OrderResult.confirmed(requested, Instant.now())));
        store.confirmAll(List.of(OrderResult.confirmed(requested, Instant.now())));

        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(4, 0));
        assertThat(store.release(sku, orderId, "gus")).isZero();
        assertThat(probe.heldBy(sku, "gus")).isEqualTo(1);
    }

    @Test
    void aSaleWithUndecidedReservationsCannotBeReplaced() {
        long sku = openSale(5, 1);
        String orderId = order();
        store.reserve(sku, orderId, "hal", 1, now, false);

        assertThat(store.loadSale(sku, 50, 1, 1, now - HOUR, now + HOUR, 1, false)).isEqualTo(SaleLoad.IN_FLIGHT);
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(4, 1));
        store.release(sku, orderId, "hal");
        assertThat(store.loadSale(sku, 50, 1, 1, now - HOUR, now + HOUR, 1, false)).isEqualTo(SaleLoad.LOADED);
        assertThat(store.state(sku)).isEqualTo(new RedisSkuState(50, 0));
    }

    private long openSale(int stock, int limit) {
        long sku = RedisFixture.newSkuId();
        assertThat(store.loadSale(sku, stock, 1, limit, now - HOUR, now + HOUR, 1, false)).isEqualTo(SaleLoad.LOADED);
        return sku;
    }

    private static String order() {
        return UUID.randomUUID().toString();
    }

    private static Set<String> codes(LuaScript script, String pattern) {
        Set<String> codes = new TreeSet<>();
        Matcher matcher = Pattern.compile(pattern).matcher(script.source().replaceAll("(?m)^--.*$", ""));
        while (matcher.find()) {
            codes.add(matcher.group(1));
        }
        return codes;
    }

    private static Set<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
    }
}
