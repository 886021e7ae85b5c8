package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.config.Secrets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A configuration is logged and shown in failures; the secrets in it never are. Production unless told
 * otherwise: a published development value, a short secret or the development payment port is refused
 * by name there, and accepted in development mode.
 */
class IngressConfigTest {

    private static final String TOKEN_SECRET = "a-buyer-token-secret-of-at-least-32-bytes";
    private static final String PREVIOUS_SECRET = "the-previous-token-secret-of-32-bytes-or-more";
    private static final String ISSUER = "https://id.shop.example";
    private static final String SECRET = TokenSettings.SECRET;
    private static final String PASS_SECRET = "a-sale-pass-secret-of-at-least-32-bytes";
    private static final String ADMIN_ISSUER = "https://staff-id.shop.example";
    private static final String ADMIN_SECRET = "an-admin-token-secret-of-at-least-32-bytes";

    @Test
    void itsTextShowsNoSecret() {
        IngressConfig config = config(Map.of(
                SECRET,
                TOKEN_SECRET,
                TokenSettings.PREVIOUS_SECRET,
                PREVIOUS_SECRET,
                TokenSettings.ISSUER,
                ISSUER,
                "SECKILL_MYSQL_PASSWORD",
                "a-mysql-password"));

        assertThat(config.toString())
                .doesNotContain(TOKEN_SECRET)
                .doesNotContain(PREVIOUS_SECRET)
                .doesNotContain("a-mysql-password")
                .doesNotContain("a-kafka-password")
                .doesNotContain(ADMIN_SECRET)
                .contains("hmacSecrets=2 (hidden)");
    }

    @Test
    void productionNeedsAnIssuerAndAKeyAndTakesAProviderAlone() {
        assertThatThrownBy(() -> config(Map.of(SECRET, TOKEN_SECRET))).hasMessageContaining(TokenSettings.ISSUER);
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER))).hasMessageContaining(SECRET);
        assertThatThrownBy(() -> config(Map.of(
                        TokenSettings.ISSUER, ISSUER, TokenSettings.JWKS_URL, "http://id.shop.example/jwks.json")))
                .hasMessageContaining(TokenSettings.JWKS_URL)
                .hasMessageContaining("https");
        assertThatThrownBy(() -> config(Map.of(
                        TokenSettings.ISSUER, ISSUER, TokenSettings.JWKS_URL, "https://id.shop.example/jwks.json")))
                .as("no token secret to derive the pass key from")
                .hasMessageContaining(PassSettings.SECRET);
        IngressConfig providerOnly = config(Map.of(
                TokenSettings.ISSUER,
                ISSUER,
                TokenSettings.JWKS_URL,
                "https://id.shop.example/jwks.json",
                PassSettings.SECRET,
                PASS_SECRET));
        assertThat(providerOnly.auth().tokens().hmacSecrets()).isEmpty();
        assertThatThrownBy(() -> config(Map.of(
                        TokenSettings.ISSUER,
                        ISSUER,
                        TokenSettings.JWKS_URL,
                        "https://id.shop.example/jwks.json",
                        PassSettings.SECRET,
                        PASS_SECRET,
                        TokenSettings.JWKS_REFRESH,
                        "30000")))
                .as("a lifetime the key cache cannot refresh within")
                .hasMessageContaining(TokenSettings.JWKS_REFRESH)
                .hasMessageContaining("45000");
        assertThatThrownBy(() -> config(Map.of(
                        TokenSettings.ISSUER,
                        ISSUER,
                        SECRET,
                        TOKEN_SECRET,
                        "SECKILL_ADMIN_TOKEN",
                        "an-old-admin-password")))
                .hasMessageContaining("SECKILL_ADMIN_TOKEN")
                .hasMessageNotContaining("an-old-admin-password");
    }

    @Test
    void productionRefusesEachPublishedDevelopmentValueByItsNameNeverItsValue() {
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET)))
                .hasMessageContaining(SECRET).hasMessageNotContaining(Secrets.DEVELOPMENT_TOKEN_SECRET);
        assertThatThrownBy(() -> config(Map.of(
                        TokenSettings.ISSUER,
                        ISSUER,
                        SECRET,
                        TOKEN_SECRET,
                        TokenSettings.PREVIOUS_SECRET,
                        Secrets.DEVELOPMENT_TOKEN_SECRET)))
                .hasMessageContaining(TokenSettings.PREVIOUS_SECRET)
                .hasMessageNotContaining(Secrets.DEVELOPMENT_TOKEN_SECRET);
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, "too-short")))
                .hasMessageContaining(SECRET).hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET,
                IngressConfig.PAYMENT_VERIFIER, "development"))).hasMessageContaining(IngressConfig.PAYMENT_VERIFIER);
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET,
                DeploymentMode.SETTING, "staging"))).hasMessageContaining(DeploymentMode.SETTING);
        assertThatThrownBy(() -> config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET,
                "SECKILL_AUTH_MODE", "oauth"))).hasMessageContaining("SECKILL_AUTH_MODE");
    }

    @Test
    void salePassSettingsAreCheckedAndNamedNeverShown() {
        Map<String, String> production = Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET);
        assertThat(config(production).passes().difficulty()).isEqualTo(PassSettings.DEFAULT_DIFFICULTY);
        assertThatThrownBy(() -> config(with(production, PassSettings.SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET)))
                .hasMessageContaining(PassSettings.SECRET).hasMessageNotContaining(Secrets.DEVELOPMENT_TOKEN_SECRET);
        assertThatThrownBy(() -> config(with(production, PassSettings.DIFFICULTY, "33")))
                .hasMessageContaining(PassSettings.DIFFICULTY);
        assertThatThrownBy(() -> config(with(production, PassSettings.CHALLENGE, "riddle")))
                .hasMessageContaining(PassSettings.CHALLENGE);
        assertThatThrownBy(() -> config(with(production, PassSettings.CHALLENGE, "captcha")))
                .hasMessageContaining("SECKILL_CAPTCHA_VERIFY_URL");
        Map<String, String> captcha = with(
                with(
                        with(
                                with(
                                        with(production, PassSettings.CHALLENGE, "captcha"),
                                        "SECKILL_CAPTCHA_VERIFY_URL",
                                        "https://captcha.example/siteverify"),
                                "SECKILL_CAPTCHA_SECRET",
                                "the-captcha-secret"),
                        "SECKILL_CAPTCHA_SITE_KEY",
                        "site-key"),
                "SECKILL_CAPTCHA_HOSTNAMES",
                "shop.example");
        assertThat(config(captcha).toString()).doesNotContain("the-captcha-secret").doesNotContain(TOKEN_SECRET);
        // The shop's secret never crosses the clear, and a token solved on another site's page is no pass.
        assertThatThrownBy(
                        () -> config(with(captcha, "SECKILL_CAPTCHA_VERIFY_URL", "http://captcha.example/siteverify")))
                .hasMessageContaining("https:");
        assertThatThrownBy(() -> config(with(captcha, "SECKILL_CAPTCHA_HOSTNAMES", " ")))
                .hasMessageContaining("SECKILL_CAPTCHA_HOSTNAMES");
        assertThat(config(with(production, PassSettings.SECRET, PASS_SECRET)).toString()).doesNotContain(PASS_SECRET);
    }

    private static Map<String, String> with(Map<String, String> settings, String name, String value) {
        Map<String, String> more = new HashMap<>(settings);
        more.put(name, value);
        return more;
    }

    @Test
    void theAdminApiListensOnThisHostOnlyUnlessTold() {
        assertThat(config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET))
                        .adminHost())
                .isEqualTo("127.0.0.1");
        assertThat(config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET, "SECKILL_ADMIN_HOST", "10.0.0.5"))
                        .adminHost())
                .isEqualTo("10.0.0.5");
    }

    @Test
    void productionDeclinesEveryPaymentUnlessAProviderIsNamed() {
        IngressConfig production = config(Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET));
        assertThat(production.paymentVerifier().refusal("order", "buyer", 1, 1, "any-reference")).isNotNull();
    }

    @Test
    void developmentModeAcceptsThePublishedValuesAndTheDevelopmentPaymentPort() {
        IngressConfig development = config(Map.of(DeploymentMode.SETTING, "development",
                SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET));
        assertThat(development.paymentVerifier().refusal("order", "buyer", 1, 1, "any-reference")).isNull();
    }

    /**
     * Admins' tokens, by a key and an issuer of their own: never a buyers' secret or key set, living an hour unless
     * told.
     */
    @Test
    void adminsTokensAreCheckedWithKeysOfTheirOwn() {
        Map<String, String> production = Map.of(TokenSettings.ISSUER, ISSUER, SECRET, TOKEN_SECRET);
        assertThat(config(production).auth().adminTokens().maxLifetime()).isEqualTo(Duration.ofHours(1));
        assertThat(config(production).auth().adminTokens().issuer()).isEqualTo(ADMIN_ISSUER);
        assertThat(config(production).toString()).doesNotContain(ADMIN_SECRET);
        assertThatThrownBy(() -> config(with(production, TokenSettings.ADMIN_SECRET, TOKEN_SECRET)))
                .hasMessageContaining(TokenSettings.ADMIN_SECRET).hasMessageNotContaining(TOKEN_SECRET);
        assertThatThrownBy(() -> config(with(
                        with(production, TokenSettings.PREVIOUS_SECRET, PREVIOUS_SECRET),
                        TokenSettings.ADMIN_PREVIOUS_SECRET,
                        PREVIOUS_SECRET)))
                .hasMessageContaining(TokenSettings.ADMIN_PREVIOUS_SECRET);
        Map<String, String> oneProvider = with(
                with(production, TokenSettings.JWKS_URL, "https://id.shop.example/jwks.json"),
                TokenSettings.ADMIN_JWKS_URL,
                "https://id.shop.example/jwks.json");
        assertThatThrownBy(() -> config(oneProvider)).hasMessageContaining(TokenSettings.ADMIN_JWKS_URL);
        assertThatThrownBy(() ->
                        config(with(production, TokenSettings.ADMIN_SECRET, Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET)))
                .hasMessageContaining(TokenSettings.ADMIN_SECRET)
                .hasMessageNotContaining(Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET);
        assertThatThrownBy(() -> config(with(production, TokenSettings.ADMIN_ISSUER, "")))
                .hasMessageContaining(TokenSettings.ADMIN_ISSUER);
    }

    /**
     * {@code settings} over an admins' issuer, secret and MySQL password of the test's own: each test names what it is
     * about.
     */
    private static IngressConfig config(Map<String, String> settings) {
        Map<String, String> withAdmins = new HashMap<>(
                Map.of(TokenSettings.ADMIN_ISSUER, ADMIN_ISSUER, TokenSettings.ADMIN_SECRET, ADMIN_SECRET));
        withAdmins.putAll(settings);
        Env env = new Env(withAdmins).withDefault(KafkaSecurity.PASSWORD, "a-kafka-password")
                .withDefault(InfraAddresses.ADMIN_MYSQL_PASSWORD, "the-admin-listeners-password");
        return IngressConfig.from(env, InfraAddresses.from(env, KafkaPrincipal.INGRESS));
    }
}
