package io.seckill.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.OutboxLookups;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The drift check names exactly the SKUs whose Redis stock + pending reservations differ from MySQL's
 * stock, and repairs only a difference that persists with nothing in flight.
 */
class DriftCheckIT {

    private static final int REPAIR_AFTER = 3;
    private final DriftCheck check = new DriftCheck(Stores.sql(), new Skus(), new OutboxLookups(), new OrderEvents(), Stores.SALES, REPAIR_AFTER, Stores.metrics());

    @Test
    void aSkuWhoseStoresAgreeIsNotReportedEvenWithReservationsInFlight() {
        long sku = Stores.openSale(10, 1);
        Stores.accepted(sku, "in-flight", Instant.now().plusSeconds(600));

        assertThat(check.run()).filteredOn(figures -> figures.drift() != 0).extracting(SkuFigures::skuId).doesNotContain(sku);
    }

    @Test
    void driftThatPersistsAtRestIsRepairedAfterTheChecksItTakes() {
        long sku = Stores.openSale(10, 1);
        new Skus().charge(Stores.sql(), sku, 4, Instant.now());

        for (int checks = 1; checks < REPAIR_AFTER; checks++) {
            assertThat(check.run()).filteredOn(figures -> figures.skuId() == sku).containsExactly(new SkuFigures(sku, 6, 0, 0, 10, 0));
        }
        assertThat(Stores.SALES.state(sku).stock()).as("not repaired before the last check").isEqualTo(10);
        check.run();

        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(6);
        assertThat(check.run()).filteredOn(figures -> figures.skuId() == sku).extracting(SkuFigures::drift).containsExactly(0L);
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
}
