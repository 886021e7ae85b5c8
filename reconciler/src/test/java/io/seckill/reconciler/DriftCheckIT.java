package io.seckill.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.Skus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The drift check names exactly the SKUs whose Redis stock + pending reservations differ from MySQL's stock. */
class DriftCheckIT {

    private final DriftCheck check = new DriftCheck(Stores.sql(), new Skus(), Stores.SALES);

    @Test
    void aSkuWhoseStoresAgreeIsNotReportedEvenWithReservationsInFlight() {
        long sku = Stores.openSale(10, 1);
        Stores.accepted(sku, "in-flight", Instant.now().plusSeconds(600));

        assertThat(check.run()).filteredOn(figures -> figures.drift() != 0).extracting(SkuFigures::skuId).doesNotContain(sku);
    }

    @Test
    void aSkuWhereRedisWouldSellMoreThanMySqlHoldsIsReportedWithItsDrift() {
        long sku = Stores.openSale(10, 1);
        new Skus().charge(Stores.sql(), sku, 4, Instant.now());

        assertThat(check.run()).filteredOn(figures -> figures.skuId() == sku)
                .containsExactly(new SkuFigures(sku, 6, 10, 0));
        assertThat(new SkuFigures(sku, 6, 10, 0).drift()).isEqualTo(4);
    }
}
