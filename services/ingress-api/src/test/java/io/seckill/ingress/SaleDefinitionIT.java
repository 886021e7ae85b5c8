package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.runtime.Concurrently;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Sales are defined MySQL first and loaded into Redis from what MySQL holds: concurrent definitions
 * end with both stores equal, a definition MySQL refuses changes neither. Stock added to or removed
 * from a live sale reaches both stores once per adjustment id, never takes reserved or sold units, and
 * returned stock is sold again at once.
 */
class SaleDefinitionIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void concurrentDefinitionsEndWithBothStoresEqual() throws Exception {
        long sku = IngressFixture.newSkuId();
        AtomicInteger next = new AtomicInteger();
        Instant now = Instant.now();

        List<Integer> statuses = Concurrently.run(12, () -> fixture.http.defineSale(sku, next.incrementAndGet(), 1,
                now.minusSeconds(60), now.plusSeconds(3600)).status());

        assertThat(statuses).allSatisfy(status -> assertThat(status).isIn(200, 201, 409));
        Map<String, Long> figures = fixture.http.figureValues(sku);
        assertThat(figures)
                .containsEntry("redisStock", figures.get("mysqlStock"))
                .containsEntry("pendingReservations", 0L);
        assertThat(fixture.redis.hget("seckill:{sku:" + sku + "}:sale", "version"))
                .isEqualTo(fixture.sql().fetchValue("SELECT version FROM sku WHERE id = " + sku).toString());
    }

    @Test
    void aDefinitionMySqlRefusesLeavesBothStoresAsTheyWere() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        String trigger = "refuse_sku_" + sku;
        fixture.sql()
                .execute("CREATE TRIGGER " + trigger + " BEFORE UPDATE ON sku FOR EACH ROW " + "BEGIN IF NEW.id = "
                        + sku + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'sku refused by test'; END IF; END");
        HttpApi.Reply refused;
        try {
            refused = fixture.http.openSale(sku, 50, 1);
        } finally {
            fixture.sql().execute("DROP TRIGGER " + trigger);
        }

        assertThat(refused.status()).isEqualTo(500);
        assertThat(fixture.http.figureValues(sku)).containsEntry("mysqlStock", 5L).containsEntry("redisStock", 5L);
        assertThat(fixture.http.buy(sku, "still-selling", 1).status()).isEqualTo(202);
    }

    @Test
    void stockIsAddedAndRemovedInBothStoresOncePerAdjustment() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 2);
        assertThat(fixture.http.buy(sku, "holder", 2).status()).isEqualTo(202);

        assertThat(adjust(sku, "restock-1", 5).status()).isEqualTo(201);
        assertThat(adjust(sku, "restock-1", 5).status()).as("a replay").isEqualTo(200);
        assertThat(adjust(sku, "restock-1", 7).code()).isEqualTo("ADJUSTMENT_ID_REUSED");
        assertThat(fixture.http.figureValues(sku))
                .containsAllEntriesOf(Map.of("mysqlStock", 10L, "redisStock", 8L, "pendingReservations", 2L));

        assertThat(adjust(sku, "damaged-1", -3).status()).isEqualTo(201);
        HttpApi.Reply tooMany = adjust(sku, "damaged-2", -6);
        assertThat(tooMany.status()).isEqualTo(409);
        assertThat(tooMany.code()).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(fixture.http.figureValues(sku))
                .containsAllEntriesOf(Map.of("mysqlStock", 7L, "redisStock", 5L, "pendingReservations", 2L));
        assertThat(adjust(IngressFixture.newSkuId(), "nowhere", 1).code()).isEqualTo("SKU_NOT_FOUND");
    }

    /** By the ingress that took the addition, without waiting out its sold-out memory; the others within it. */
    @Test
    void stockReturnedToASoldOutSaleIsSoldAgainAtOnce() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 1, 1);
        assertThat(fixture.http.buy(sku, "first", 1).status()).isEqualTo(202);
        assertThat(fixture.http.buy(sku, "second", 1).code()).isEqualTo("SOLD_OUT");

        assertThat(adjust(sku, "found-one", 1).status()).isEqualTo(201);

        assertThat(fixture.http.buy(sku, "second", 1).status()).isEqualTo(202);
    }

    private HttpApi.Reply adjust(long sku, String adjustmentId, int delta) {
        return fixture.http.send(
                HttpRequest.newBuilder(fixture.http.adminUri("/admin/v1/skus/" + sku + "/stock-adjustments"))
                        .header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"adjustmentId\":\"" + adjustmentId
                                + "\",\"delta\":" + delta + ",\"reason\":\"test\"}")));
    }
}
