package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.Env;
import io.seckill.ingress.identity.TrustedHeaderIdentity;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway mode only when asked for and only for the gateway, an identity provider's tokens by the keys it
 * publishes, and no ingress without its secrets.
 */
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
            HttpApi.Reply accepted = http.send(
                    asBuyer(http, sku, "gateway-user").header(TrustedHeaderIdentity.GATEWAY_HEADER, GATEWAY_SECRET));
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

    /**
     * A shop's identity provider signs buyers' tokens (RS256) with a key its JWKS document publishes: the ingress
     * takes them by kid; one for another audience, one by a key the document does not hold, and one signed by the
     * development secret the ingress was not given are 401.
     */
    @Test
    void tokensOfAnIdentityProvidersPublishedKeyAreAcceptedAndNoOthers(@TempDir Path directory) throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        RSAKey published = new RSAKeyGenerator(2048).keyID("shop-key-1").generate();
        RSAKey unpublished = new RSAKeyGenerator(2048).keyID("shop-key-1").generate();
        Path jwks = Files.writeString(directory.resolve("jwks.json"), new JWKSet(published.toPublicJWK()).toString());
        // No shared secret (blank is unset): the provider's keys alone sign, and sale passes need a key of their own.
        Map<String, String> provider = Map.of(
                TokenSettings.JWKS_URL,
                jwks.toUri().toString(),
                TokenSettings.ISSUER,
                "https://id.shop.example",
                TokenSettings.AUDIENCE,
                "shop-seckill",
                TokenSettings.SECRET,
                "",
                PassSettings.SECRET,
                "the-sale-pass-key-of-32-bytes-or-more");
        try (ManagedIngress ingress = fixture.start(provider)) {
            HttpApi http = ingress.http();

            assertThat(buyWith(http, sku, providerToken(published, "shop-seckill", "provider-user"))
                            .status())
                    .isEqualTo(202);
            assertThat(fixture.probe.heldBy(sku, "provider-user")).isEqualTo(1);
            for (String refused : List.of(providerToken(published, "another-service", "wrong-audience"),
                    providerToken(unpublished, "shop-seckill", "forged-key"), HttpApi.tokenFor("development-token"))) {
                HttpApi.Reply reply = buyWith(http, sku, refused);
                assertThat(reply.status()).isEqualTo(401);
                assertThat(reply.code()).isEqualTo("TOKEN_INVALID");
            }
        }
    }

    private static String providerToken(RSAKey key, String audience, String subject) throws Exception {
        Instant now = Instant.now();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder()
                        .issuer("https://id.shop.example")
                        .audience(audience)
                        .subject(subject)
                        .issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plusSeconds(600)))
                        .build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static HttpApi.Reply buyWith(HttpApi http, long sku, String token) {
        return http.send(HttpRequest.newBuilder(http.uri("/api/v1/skus/" + sku + "/orders"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")));
    }

    @Test
    void anIngressWithoutItsSecretsDoesNotStart() {
        Env noSecrets = new Env(Map.of("SECKILL_HTTP_PORT", "0"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(noSecrets, fixture.infra)))
                .hasMessageContaining("SECKILL_TOKEN_SECRET");
        Env weakSecret = new Env(Map.of(
                "SECKILL_HTTP_PORT",
                "0",
                TokenSettings.ISSUER,
                "https://id.shop.example",
                TokenSettings.SECRET,
                "weak-0123"));
        assertThatThrownBy(() -> ManagedIngress.start(IngressConfig.from(weakSecret, fixture.infra)))
                .hasMessageContaining(TokenSettings.SECRET).hasMessageNotContaining("weak-0123");
        Env gatewayWithoutCredential = fixture.env.withDefault("SECKILL_AUTH_MODE", "trusted-header");
        assertThatThrownBy(() -> IngressConfig.from(gatewayWithoutCredential, fixture.infra))
                .hasMessageContaining(IngressConfig.GATEWAY_SECRET);
    }
}
