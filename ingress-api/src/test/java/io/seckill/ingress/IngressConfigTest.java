package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.Secrets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A configuration is logged and shown in failures; the secrets in it never are. Production unless told
 * otherwise: a published development value, a short secret or the development payment port is refused
 * by name there, and accepted in development mode.
 */
class IngressConfigTest {

    private static final String TOKEN_SECRET = "a-buyer-token-secret-of-at-least-32-bytes";
    private static final String ADMIN_TOKEN = "an-admin-token-nobody-should-read-in-a-log";

    @Test
    void itsTextShowsNoSecret() {
        Env env = new Env(Map.of("SECKILL_TOKEN_SECRET", TOKEN_SECRET, "SECKILL_ADMIN_TOKEN", ADMIN_TOKEN, "SECKILL_MYSQL_PASSWORD", "a-mysql-password"));
        IngressConfig config = IngressConfig.from(env, InfraAddresses.from(env));

        assertThat(config.toString()).doesNotContain(TOKEN_SECRET).doesNotContain(ADMIN_TOKEN).doesNotContain("a-mysql-password")
                .contains("tokenSecret=(hidden)").contains("adminToken=(hidden)");
    }

    @Test
    void productionRefusesEachPublishedDevelopmentValueByItsNameNeverItsValue() {
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN)))
                .hasMessageContaining(IngressConfig.TOKEN_SECRET).hasMessageNotContaining(Secrets.DEVELOPMENT_TOKEN_SECRET);
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, Secrets.DEVELOPMENT_ADMIN_TOKEN)))
                .hasMessageContaining(IngressConfig.ADMIN_TOKEN).hasMessageNotContaining(Secrets.DEVELOPMENT_ADMIN_TOKEN);
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, "too-short", IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN)))
                .hasMessageContaining(IngressConfig.TOKEN_SECRET).hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN,
                IngressConfig.PAYMENT_VERIFIER, "development"))).hasMessageContaining(IngressConfig.PAYMENT_VERIFIER);
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN,
                DeploymentMode.SETTING, "staging"))).hasMessageContaining(DeploymentMode.SETTING);
        assertThatThrownBy(() -> config(Map.of(IngressConfig.TOKEN_SECRET, TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN,
                "SECKILL_AUTH_MODE", "oauth"))).hasMessageContaining("SECKILL_AUTH_MODE");
    }

    @Test
    void productionDeclinesEveryPaymentUnlessAProviderIsNamed() {
        IngressConfig production = config(Map.of(IngressConfig.TOKEN_SECRET, TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN));
        assertThat(production.paymentVerifier().refusal("order", "buyer", 1, 1, "any-reference")).isNotNull();
    }

    @Test
    void developmentModeAcceptsThePublishedValuesAndTheDevelopmentPaymentPort() {
        IngressConfig development = config(Map.of(DeploymentMode.SETTING, "development",
                IngressConfig.TOKEN_SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET, IngressConfig.ADMIN_TOKEN, Secrets.DEVELOPMENT_ADMIN_TOKEN));
        assertThat(development.paymentVerifier().refusal("order", "buyer", 1, 1, "any-reference")).isNull();
    }

    private static IngressConfig config(Map<String, String> settings) {
        Env env = new Env(settings);
        return IngressConfig.from(env, InfraAddresses.from(env));
    }
}
