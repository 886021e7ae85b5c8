package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.config.Env;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway mode only when asked for, and no ingress without its secrets. */
class AuthModesTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void trustedHeaderModeBelievesTheGatewayAndNothingElse() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        IngressConfig gateway = IngressConfig.from(pipeline.env.withDefault("SECKILL_AUTH_MODE", "trusted-header"), pipeline.infra);
        try (IngressApi ingress = IngressApi.start(gateway)) {
            HttpApi http = new HttpApi(ingress.port());
            HttpApi.Reply accepted = http.send(HttpRequest.newBuilder(http.uri("/api/v1/skus/" + sku + "/orders"))
                    .header("X-User-Id", "gateway-user").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")));
            assertThat(accepted.status()).isEqualTo(202);
            assertThat(pipeline.saleStore.heldBy(sku, "gateway-user")).isEqualTo(1);

            HttpApi.Reply tokenOnly = http.buy(sku, "token-user", 1);
            assertThat(tokenOnly.status()).isEqualTo(401);
            assertThat(tokenOnly.code()).isEqualTo("UNAUTHENTICATED");
        }
    }

    @Test
    void anIngressWithoutItsSecretsDoesNotStart() {
        Env noSecrets = new Env(Map.of("SECKILL_HTTP_PORT", "0"));
        assertThatThrownBy(() -> IngressApi.start(IngressConfig.from(noSecrets, pipeline.infra)))
                .hasMessageContaining("SECKILL_TOKEN_SECRET");
        Env weakAdmin = new Env(Map.of("SECKILL_HTTP_PORT", "0", IngressConfig.TOKEN_SECRET, Pipeline.TOKEN_SECRET,
                IngressConfig.ADMIN_TOKEN, "short"));
        assertThatThrownBy(() -> IngressApi.start(IngressConfig.from(weakAdmin, pipeline.infra)))
                .hasMessageContaining("admin token");
    }
}
