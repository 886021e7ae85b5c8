package io.seckill.reconciler.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.reconciler.Stores;
import io.seckill.redisstate.SaleStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Stock MySQL added but Redis never took (the ingress died between the two) reaches Redis once: the
 * reconciler applies it, and a second run, or the ingress's own late attempt, changes nothing.
 */
class PendingAdjustmentsIT {

    private final StockAdjustments adjustments = new StockAdjustments();
    private final PendingAdjustments pending =
            new PendingAdjustments(Stores.sql(), adjustments, Stores.SALES, Duration.ZERO);

    @Test
    void anAdditionMySqlRecordedIsAppliedToRedisOnce() {
        long sku = Stores.openSale(5, 1);
        String id = "restock-" + sku;
        adjustments.record(
                Stores.owner(),
                new StockAdjustments.Adjustment(id, sku, 3, "found in the warehouse", false),
                false,
                Instant.now());

        pending.apply();
        pending.apply();

        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(8);
        assertThat(adjustments.find(Stores.sql(), id)).map(StockAdjustments.Adjustment::inRedis).contains(true);
        assertThat(Stores.SALES.adjustStock(sku, id, 3).adjustment()).isEqualTo(SaleStore.Adjustment.ALREADY);
        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(8);
    }
}
