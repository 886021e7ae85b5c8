package io.seckill.launcher;

import io.seckill.config.Env;
import io.seckill.ingress.IngressConfig;
import io.seckill.ingress.auth.BuyerToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The development mode's published credentials, used only when the environment sets none, and the
 * lines of the banner that tell a developer how to authenticate.
 */
final class DevCredentials {

    static final String TOKEN_SECRET = "dev-only-token-secret-do-not-use-in-production";
    static final String ADMIN_TOKEN = "dev-only-admin-token";
    private static final String DEMO_USER = "alice";

    private DevCredentials() {
    }

    static String describe(Env env) {
        String secret = env.string(IngressConfig.TOKEN_SECRET, TOKEN_SECRET);
        String aliceToken = new BuyerToken(secret, Clock.systemUTC(), Duration.ZERO)
                .mint(DEMO_USER, Instant.now().plus(Duration.ofHours(24)));
        StringBuilder lines = new StringBuilder();
        if (TOKEN_SECRET.equals(secret)) {
            lines.append("  (development credentials: set SECKILL_TOKEN_SECRET and SECKILL_ADMIN_TOKEN for anything else)\n");
        }
        lines.append(String.format("  admin   Authorization: Bearer %s%n", env.string(IngressConfig.ADMIN_TOKEN, ADMIN_TOKEN)));
        lines.append(String.format("  buyer   Authorization: Bearer %s  (%s, 24 h)%n", aliceToken, DEMO_USER));
        return lines.toString();
    }
}
