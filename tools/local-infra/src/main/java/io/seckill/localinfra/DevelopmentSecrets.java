package io.seckill.localinfra;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Secrets;
import java.util.Map;

/**
 * What makes a run on the development servers a development run: development mode, and the published
 * secrets that sign the ingress's buyers' tokens and, apart, its admins'. They go into {@code servers.env} only when
 * the environment sets none; anything but a developer's own machine runs without that file, in production
 * mode, with secrets of its own.
 */
public final class DevelopmentSecrets {

    public static final String TOKEN_SECRET_VARIABLE = "SECKILL_TOKEN_SECRET";
    public static final String TOKEN_SECRET = Secrets.DEVELOPMENT_TOKEN_SECRET;
    public static final String ADMIN_TOKEN_SECRET_VARIABLE = "SECKILL_ADMIN_TOKEN_SECRET";
    public static final String ADMIN_TOKEN_SECRET = Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET;

    private DevelopmentSecrets() {
    }

    public static Map<String, String> variables() {
        return Map.of(DeploymentMode.SETTING, DeploymentMode.DEVELOPMENT.label(), TOKEN_SECRET_VARIABLE, TOKEN_SECRET,
                ADMIN_TOKEN_SECRET_VARIABLE, ADMIN_TOKEN_SECRET);
    }
}
