package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaPrincipal;
import io.seckill.ingress.HttpApi;
import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.runtime.TestHost;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An ingress whose clock is an hour slow still thinks a sale that ended a minute ago is open, and
 * reserves for it. MySQL, which recorded the order by its own clock, has the final word: the order is
 * rejected OUTSIDE_SALE_WINDOW and its unit goes back.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class WrongClockIT {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void anIngressWithASlowClockCannotSellOutsideTheWindow() {
        long sku = Pipeline.newSkuId();
        Instant now = Instant.now();
        assertThat(pipeline.http
                        .defineSale(sku, 5, 1, now.minus(Duration.ofHours(2)), now.minusSeconds(60))
                        .status())
                .isEqualTo(201);
        assertThat(pipeline.http.buy(sku, "on-time", 1).code()).isEqualTo("SALE_ENDED");

        TestHost slowHost = new TestHost(Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)));
        try (IngressApi slow = IngressApi.start(
                IngressConfig.from(pipeline.env, LocalInfrastructure.get().addressesFor(KafkaPrincipal.INGRESS)),
                slowHost.host())) {
            HttpApi slowHttp = new HttpApi(slow.port(), slow.adminPort());
            HttpApi.Reply accepted = slowHttp.buy(sku, "slow-clock", 1);
            assertThat(accepted.status()).isEqualTo(202);

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "REJECTED".equals(pipeline.http.orderStatus("slow-clock", accepted.orderId())));
            assertThat(pipeline.http
                            .order("slow-clock", accepted.orderId())
                            .json()
                            .path("reason")
                            .asText())
                    .isEqualTo("OUTSIDE_SALE_WINDOW");
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(pipeline.http.figureValues(sku))
                        .containsAllEntriesOf(Map.of(
                                "mysqlStock",
                                5L,
                                "redisStock",
                                5L,
                                "pendingReservations",
                                0L,
                                "confirmedQuantity",
                                0L)));
    }
}
