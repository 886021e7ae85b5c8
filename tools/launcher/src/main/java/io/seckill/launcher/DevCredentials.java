package io.seckill.launcher;

import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.localinfra.DevelopmentSecrets;
import java.time.Clock;
import java.time.Duration;

/**
 * The lines of the development banner that tell a developer how to authenticate: a buyer's and an admin's
 * token, signed with the secret and settings the ingress verifies with. Printed in development mode only.
 */
final class DevCredentials {

    private static final String DEMO_USER = "alice";
    private static final String DEMO_ADMIN = "dev-admin";
    private static final Duration LIFETIME = Duration.ofHours(24);

    private DevCredentials() {
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    static String describe(Env env) {
        TokenSettings buyers = TokenSettings.from(env, DeploymentMode.DEVELOPMENT);
        TokenSettings admins = TokenSettings.adminFrom(env, DeploymentMode.DEVELOPMENT);
        StringBuilder lines = new StringBuilder();
        if (DevelopmentSecrets.TOKEN_SECRET.equals(buyers.hmacSecrets().get(0))
                || DevelopmentSecrets.ADMIN_TOKEN_SECRET.equals(
                        admins.hmacSecrets().get(0))) {
            lines.append("  (development credentials: set " + TokenSettings.SECRET + " and "
                    + TokenSettings.ADMIN_SECRET + ", or their JWKS_URL, " + "for anything else)\n");
        }
        lines.append(String.format(
                "  admin   Authorization: Bearer %s  (%s, for %s)%n",
                new TokenMinter(admins, Clock.systemUTC()).admin(DEMO_ADMIN, admins.maxLifetime()),
                DEMO_ADMIN,
                admins.maxLifetime()));
        lines.append(String.format(
                "  buyer   Authorization: Bearer %s  (%s)%n",
                new TokenMinter(buyers, Clock.systemUTC()).buyer(DEMO_USER, shorter(buyers.maxLifetime(), LIFETIME)),
                DEMO_USER));
        lines.append(String.format("  mint more: bin/seckill mint-token USER  (--admin for an admin's)%n"));
        lines.append(String.format(
                "  sale passes: POST /api/v1/skus/{skuId}/pass-challenges, bin/seckill solve-challenge CHALLENGE, "
                        + "POST /api/v1/skus/{skuId}/passes (README walk-through)%n"));
        return lines.toString();
    }
}
