package io.seckill.localinfra;

import java.util.Map;

/**
 * The published credentials of development mode, for the ingress's token signing and admin routes.
 * They go into {@code servers.env} only when the environment sets none; anything but a developer's
 * own machine sets its own.
 */
public final class DevelopmentSecrets {

    public static final String TOKEN_SECRET_VARIABLE = "SECKILL_TOKEN_SECRET";
    public static final String ADMIN_TOKEN_VARIABLE = "SECKILL_ADMIN_TOKEN";
    public static final String TOKEN_SECRET = "dev-only-token-secret-do-not-use-in-production";
    public static final String ADMIN_TOKEN = "dev-only-admin-token";

    private DevelopmentSecrets() {
    }

    public static Map<String, String> variables() {
        return Map.of(TOKEN_SECRET_VARIABLE, TOKEN_SECRET, ADMIN_TOKEN_VARIABLE, ADMIN_TOKEN);
    }
}
