package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.ingress.http.Reply;
import io.seckill.config.Env;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway mode only when asked for, and no ingress without its secrets. */
class AuthModesIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void trustedHeaderModeBelievesTheGatewayAndNothingElse() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        IngressConfig gateway = IngressConfig.from(fixture.env.withDefault("SECKILL_AUTH_MODE", "trusted-header"), fixture.infra);
        try (ManagedIngress ingress = ManagedIngress.start(gateway)) {
            HttpApi http = ingress.http();
            HttpApi.Reply accepted = http.send(HttpRequest.newBuilder(http.uri("/api/v1/skus/" + sku + "/orders"))
                    .header("X-User-Id", "gateway-user").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")));
            assertThat(accepted.status()).isEqualTo(202);
            assertThat(fixture.probe.heldBy(sku, "gateway-user")).isEqualTo(1);

            HttpApi.Reply tokenOnly = http.buy(sku, "token-user", 1);
            assertThat(tokenOnly.status()).isEqualTo(401);
            assertThat(tokenOnly.code()).isEqualTo("UNAUTHENTICATED");
        }
    }

    @Test
    void anIngressWithoutItsSecretsDoesNotStart() {
        Env noSecrets = new Env(Map.of("SECKILL_HTTP_PORT", "0"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(noSecrets, fixture.infra)))
                .hasMessageContaining("SECKILL_TOKEN_SECRET");
        Env weakAdmin = new Env(Map.of("SECKILL_HTTP_PORT", "0", IngressConfig.TOKEN_SECRET, HttpApi.TOKEN_SECRET,
                IngressConfig.ADMIN_TOKEN, "weak-0123"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(weakAdmin, fixture.infra)))
                .hasMessageContaining("SECKILL_ADMIN_TOKEN").hasMessageNotContaining("weak-0123");
    }
}
