package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The window slides: once the oldest admitted request is older than the window, a slot frees up. */
class RateLimitWindowTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void aLimitedBuyerIsAdmittedAgainWhenTheWindowHasPassed() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 100, 100);
        IngressConfig config = IngressConfig.from(pipeline.env, pipeline.infra);
        IngressConfig limited = new IngressConfig(config.infra(), config.httpPort(), config.relayGrace(), config.mysqlPoolSize(),
                config.redisPoolSize(), config.kafkaMaxBlock(), config.auth(),
                new IngressConfig.RateLimits(2, 0, Duration.ofMillis(1500), false),
                config.idempotencyTtl(), config.soldOutMemory(), config.orderStatusTtl(), config.outboxWriters(), config.redisPipelines(), false);
        try (IngressApi ingress = IngressApi.start(limited)) {
            HttpApi http = new HttpApi(ingress.port());
            assertThat(http.buy(sku, "patient", 1).status()).isEqualTo(202);
            assertThat(http.buy(sku, "patient", 1).status()).isEqualTo(202);
            HttpApi.Reply refused = http.buy(sku, "patient", 1);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.retryAfter()).isIn("1", "2");

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.buy(sku, "patient", 1).status() == 202);
            assertThat(pipeline.saleStore.heldBy(sku, "patient")).isEqualTo(3);
        }
    }
}
