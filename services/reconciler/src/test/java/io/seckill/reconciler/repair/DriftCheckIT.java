package io.seckill.reconciler.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.reconciler.Stores;
import io.seckill.reconciler.jobs.SkuFigures;
import io.seckill.redisstate.SaleStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The drift check names exactly the SKUs whose Redis stock + pending reservations differ from MySQL's
 * stock, and repairs only a difference that persists with nothing in flight.
 */
class DriftCheckIT {

    private static final int REPAIR_AFTER = 3;
    private final StockAdjustments adjustments = new StockAdjustments();
    private final DriftCheck check = new DriftCheck(
            Stores.sql(),
            new Skus(),
            new OutboxLookups(),
            new OrderEvents(),
            adjustments,
            Stores.SALES,
            REPAIR_AFTER,
            Stores.metrics());

    @Test
    void aSkuWhoseStoresAgreeIsNotReportedEvenWithReservationsInFlight() {
        long sku = Stores.openSale(10, 1);
        Stores.accepted(sku, "in-flight", Instant.now().plusSeconds(600));

        assertThat(check.run())
                .filteredOn(figures -> figures.drift() != 0)
                .extracting(SkuFigures::skuId)
                .doesNotContain(sku);
    }

    @Test
    void driftThatPersistsAtRestIsRepairedAfterTheChecksItTakes() {
        long sku = Stores.openSale(10, 1);
        new Skus().charge(Stores.sql(), sku, 4, Instant.now());

        for (int checks = 1; checks < REPAIR_AFTER; checks++) {
            assertThat(check.run())
                    .filteredOn(figures -> figures.skuId() == sku)
                    .containsExactly(new SkuFigures(sku, 6, 0, 0, 10, 0));
        }
        assertThat(Stores.SALES.state(sku).stock()).as("not repaired before the last check").isEqualTo(10);
        check.run();

        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(6);
        assertThat(check.run())
                .filteredOn(figures -> figures.skuId() == sku)
                .extracting(SkuFigures::drift)
                .containsExactly(0L);
    }

    /**
     * A split SKU is judged summed over its buckets; its repair takes from buckets beyond the first when the first is
     * short.
     */
    @Test
    void driftOfASplitSaleIsRepairedAcrossItsBuckets() {
        long sku = Stores.openSplitSale(Stores.newSkuId(), 8, 1, 4);
        new Skus().charge(Stores.sql(), sku, 5, Instant.now());

        for (int checks = 1; checks <= REPAIR_AFTER; checks++) {
            check.run();
        }

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(3, 0));
        assertThat(check.run())
                .filteredOn(figures -> figures.skuId() == sku)
                .extracting(SkuFigures::drift)
                .containsExactly(0L);
    }

    @Test
    void aDifferenceWithAnOrderInFlightOrOneThatKeepsChangingIsNotRepaired() {
        long inFlight = Stores.openSale(10, 1);
        Stores.accepted(inFlight, "undecided", Instant.now().plusSeconds(600));
        new Skus().charge(Stores.sql(), inFlight, 2, Instant.now());
        long changing = Stores.openSale(10, 1);

        for (int checks = 0; checks < REPAIR_AFTER * 2; checks++) {
            new Skus().charge(Stores.sql(), changing, 1, Instant.now());
            check.run();
        }

        assertThat(Stores.SALES.state(inFlight).stock()).isEqualTo(9);
        assertThat(Stores.SALES.state(changing).stock()).isEqualTo(10);
    }

    /**
     * MySQL added stock that Redis never took (the ingress died between the two): that is an addition on its way,
     * applied once by the reconciler, not drift. Corrected as drift first, it would be added a second time.
     */
    @Test
    void anAdditionRedisNeverTookIsAppliedOnceNotCorrectedAsDrift() {
        long sku = Stores.openSale(10, 1);
        adjustments.record(
                Stores.owner(),
                new StockAdjustments.Adjustment("restock-" + sku, sku, 5, "found in the warehouse", false),
                false,
                Instant.now());

        for (int checks = 0; checks < REPAIR_AFTER * 2; checks++) {
            check.run();
        }
        assertThat(Stores.SALES.state(sku).stock()).as("not corrected while the addition is on its way").isEqualTo(10);
        new PendingAdjustments(Stores.sql(), adjustments, Stores.SALES, Duration.ZERO).apply();
        for (int checks = 0; checks < REPAIR_AFTER; checks++) {
            check.run();
        }

        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(15);
        assertThat(check.run())
                .filteredOn(figures -> figures.skuId() == sku)
                .extracting(SkuFigures::drift)
                .containsExactly(0L);
    }
}
