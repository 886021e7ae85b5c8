package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.ingress.http.Reply;
import io.seckill.config.Env;
import io.seckill.ingress.identity.TokenSettings;
import io.seckill.ingress.identity.TrustedHeaderIdentity;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway mode only when asked for and only for the gateway, and no ingress without its secrets. */
class AuthModesIT {

    private static final String GATEWAY_SECRET = "the-gateway-credential-of-32-bytes-or-more";

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void trustedHeaderModeBelievesTheGatewayAndNothingElse() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        IngressConfig gateway = IngressConfig.from(fixture.env.withDefault("SECKILL_AUTH_MODE", "trusted-header")
                .withDefault(IngressConfig.GATEWAY_SECRET, GATEWAY_SECRET), fixture.infra);
        try (ManagedIngress ingress = ManagedIngress.start(gateway)) {
            HttpApi http = ingress.http();
            HttpApi.Reply accepted = http.send(asBuyer(http, sku, "gateway-user").header(TrustedHeaderIdentity.GATEWAY_HEADER, GATEWAY_SECRET));
            assertThat(accepted.status()).isEqualTo(202);
            assertThat(fixture.probe.heldBy(sku, "gateway-user")).isEqualTo(1);

            HttpApi.Reply pastTheGateway = http.send(asBuyer(http, sku, "forged-user"));
            HttpApi.Reply wrongCredential = http.send(asBuyer(http, sku, "forged-user")
                    .header(TrustedHeaderIdentity.GATEWAY_HEADER, "not-the-gateway-credential-0123456789"));
            HttpApi.Reply tokenOnly = http.buy(sku, "token-user", 1);
            assertThat(List.of(pastTheGateway, wrongCredential, tokenOnly)).allSatisfy(refused -> {
                assertThat(refused.status()).isEqualTo(401);
                assertThat(refused.code()).isEqualTo("UNAUTHENTICATED");
            });
            assertThat(fixture.probe.heldBy(sku, "forged-user")).isZero();
        }
    }

    /** A buy naming its buyer in X-User-Id, as the gateway sends it. */
    private static HttpRequest.Builder asBuyer(HttpApi http, long sku, String userId) {
        return HttpRequest.newBuilder(http.uri("/api/v1/skus/" + sku + "/orders"))
                .header(TrustedHeaderIdentity.HEADER, userId).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}"));
    }

    @Test
    void anIngressWithoutItsSecretsDoesNotStart() {
        Env noSecrets = new Env(Map.of("SECKILL_HTTP_PORT", "0"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(noSecrets, fixture.infra)))
                .hasMessageContaining("SECKILL_TOKEN_SECRET");
        Env weakSecret = new Env(Map.of("SECKILL_HTTP_PORT", "0", TokenSettings.ISSUER, "https://id.shop.example", TokenSettings.SECRET, "weak-0123"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(weakSecret, fixture.infra)))
                .hasMessageContaining(TokenSettings.SECRET).hasMessageNotContaining("weak-0123");
        Env gatewayWithoutCredential = fixture.env.withDefault("SECKILL_AUTH_MODE", "trusted-header");
        assertThatThrownBy(() -> IngressConfig.from(gatewayWithoutCredential, fixture.infra)).hasMessageContaining(IngressConfig.GATEWAY_SECRET);
    }
}
