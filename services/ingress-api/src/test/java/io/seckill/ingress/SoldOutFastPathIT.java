package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redisstate.SaleStore.Reservation;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * two ingress instances answer a sold-out SKU from memory, and both sell again
 * within one second of stock coming back.
 */
class SoldOutFastPathIT {

    private static final Pattern FAST_PATH_HITS =
            Pattern.compile("(?m)^seckill_sold_out_fast_path_total(?:\\{[^}]*})? (\\S+)$");
    private final IngressFixture fixture = IngressFixture.get();
    private final AtomicInteger buyers = new AtomicInteger();

    @Test
    void bothInstancesAnswerFromMemoryAndSellAgainWithinASecond() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 2, 1);
        // Two reservations with no order behind them take the stock, so nothing gives it back until we do.
        String[] holds = {UUID.randomUUID().toString(), UUID.randomUUID().toString()};
        for (String hold : holds) {
            assertThat(fixture.saleStore
                            .reserve(
                                    sku,
                                    hold,
                                    "holder-" + hold,
                                    1,
                                    Instant.now().toEpochMilli(),
                                    false)
                            .reservation())
                    .isEqualTo(Reservation.RESERVED);
        }
        IngressConfig config = IngressConfig.from(fixture.env, fixture.infra);
        try (ManagedIngress first = ManagedIngress.start(config);
                ManagedIngress second = ManagedIngress.start(config)) {
            HttpApi[] instances = {first.http(), second.http()};
            HttpApi[] managements = {first.managementHttp(), second.managementHttp()};
            for (int n = 0; n < 2; n++) {
                double before = fastPathHits(managements[n]);
                for (int i = 0; i < 10; i++) {
                    assertThat(instances[n].buy(sku, nextBuyer(), 1).code()).isEqualTo("SOLD_OUT");
                }
                assertThat(fastPathHits(managements[n]) - before).as("answers from memory").isGreaterThanOrEqualTo(5);
            }

            for (String hold : holds) {
                fixture.saleStore.release(sku, hold, "holder-" + hold);
            }
            boolean[] sold = new boolean[2];
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(25)).until(() -> {
                for (int i = 0; i < 2; i++) {
                    sold[i] = sold[i] || instances[i].buy(sku, nextBuyer(), 1).status() == 202;
                }
                return sold[0] && sold[1];
            });
        }
    }

    /**
     * Keyed buys of a sold-out SKU, each with a fresh key, are answered SOLD_OUT after looking for an order made under
     * their key on the pool of the buyers' other routes: none takes a connection the outbox writes need.
     */
    @Test
    void keyedBuysOfASoldOutSkuTakeNoConnectionOfTheBuyPool() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 1, 1);
        try (ManagedIngress ingress = fixture.start(Map.of())) {
            HttpApi http = ingress.http();
            assertThat(http.buy(sku, nextBuyer(), 1).status()).isEqualTo(202);
            double before = ingress.buyPoolConnectionsTaken();
            long started = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                assertThat(http.buy(sku, nextBuyer(), 1, "sold-out-key-" + i).code()).isEqualTo("SOLD_OUT");
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            // The readiness check pings MySQL on that pool about once a second; the buys would be three hundred.
            assertThat(ingress.buyPoolConnectionsTaken() - before)
                    .as("connections of the buy path's pool taken by 300 keyed sold-out buys in %.1f s", seconds)
                    .isLessThanOrEqualTo(Math.ceil(seconds) + 1);
        }
    }

    private String nextBuyer() {
        return "fast-path-" + buyers.incrementAndGet();
    }

    private static double fastPathHits(HttpApi management) {
        Matcher hits = FAST_PATH_HITS.matcher(management.get("/metrics").body());
        assertThat(hits.find()).as("metric present").isTrue();
        return Double.parseDouble(hits.group(1));
    }
}
