package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A configuration is logged and shown in failures; the secrets in it never are. */
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
}
