package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The window slides: once the oldest admitted request is older than the window, a slot frees up. */
class RateLimitWindowIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aLimitedBuyerIsAdmittedAgainWhenTheWindowHasPassed() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 100);
        try (ManagedIngress ingress =
                fixture.start(Map.of("SECKILL_RATE_LIMIT_PER_USER", "2", "SECKILL_RATE_LIMIT_WINDOW_MS", "1500"))) {
            HttpApi http = ingress.http();
            assertThat(http.buy(sku, "patient", 1).status()).isEqualTo(202);
            assertThat(http.buy(sku, "patient", 1).status()).isEqualTo(202);
            HttpApi.Reply refused = http.buy(sku, "patient", 1);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.retryAfter()).isIn("1", "2");

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.buy(sku, "patient", 1).status() == 202);
            assertThat(fixture.probe.heldBy(sku, "patient")).isEqualTo(3);
        }
    }
}
