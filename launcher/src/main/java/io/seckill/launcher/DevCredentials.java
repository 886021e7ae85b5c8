package io.seckill.launcher;

import io.seckill.config.Env;
import io.seckill.ingress.IngressConfig;
import io.seckill.ingress.identity.BuyerToken;
import io.seckill.localinfra.DevelopmentSecrets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The development mode's published credentials, used only when the environment sets none, and the
 * lines of the banner that tell a developer how to authenticate.
 */
final class DevCredentials {

    private static final String DEMO_USER = "alice";

    private DevCredentials() {
    }

    static String describe(Env env) {
        String secret = env.string(IngressConfig.TOKEN_SECRET, DevelopmentSecrets.TOKEN_SECRET);
        String aliceToken = new BuyerToken(secret, Clock.systemUTC(), Duration.ZERO)
                .mint(DEMO_USER, Instant.now().plus(Duration.ofHours(24)));
        StringBuilder lines = new StringBuilder();
        if (DevelopmentSecrets.TOKEN_SECRET.equals(secret)) {
            lines.append("  (development credentials: set SECKILL_TOKEN_SECRET and SECKILL_ADMIN_TOKEN for anything else)\n");
        }
        lines.append(String.format("  admin   Authorization: Bearer %s%n", env.string(IngressConfig.ADMIN_TOKEN, DevelopmentSecrets.ADMIN_TOKEN)));
        lines.append(String.format("  buyer   Authorization: Bearer %s  (%s, 24 h)%n", aliceToken, DEMO_USER));
        return lines.toString();
    }
}
