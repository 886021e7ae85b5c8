package io.seckill.config;

import java.util.Locale;

/**
 * Whether a process runs for real or on a developer's machine ({@value #SETTING}). Production unless
 * told otherwise: development mode accepts the credentials this repository publishes and the
 * development payment port, so it is set only by the development runs themselves ({@code bin/seckill
 * all}, and the development servers' {@code servers.env} for the services started against them), and
 * every process names its mode when it starts and in {@code /ready}.
 */
public enum DeploymentMode {
    PRODUCTION,
    DEVELOPMENT;

    public static final String SETTING = "SECKILL_MODE";

    /** @throws IllegalArgumentException naming the setting, for anything but production or development */
    public static DeploymentMode of(Env env) {
        String value = env.string(SETTING, "production");
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "production" -> PRODUCTION;
            case "development" -> DEVELOPMENT;
            default ->
                throw new IllegalArgumentException(SETTING + " must be production or development, was '" + value + "'");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
