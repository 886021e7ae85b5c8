package io.seckill.config;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The checks every secret setting passes before a service starts: present, long enough, and in
 * production none of the values this repository publishes (its development defaults and examples),
 * which anyone can read and so sign with.
 */
public final class Secrets {

    /** The development run's token secret, published in the README and servers.env. */
    public static final String DEVELOPMENT_TOKEN_SECRET = "dev-only-token-secret-do-not-use-in-production";
    /** The development run's admin token secret, published likewise. */
    public static final String DEVELOPMENT_ADMIN_TOKEN_SECRET = "dev-only-admin-token-secret-do-not-use-in-production";
    /**
     * The development MySQL's password of every service account, published likewise (local-infra makes the accounts).
     */
    public static final String DEVELOPMENT_APPLICATION_PASSWORD = "dev-only-application-password";
    /** The development MySQL's migration account password, published likewise. */
    public static final String DEVELOPMENT_MIGRATION_PASSWORD = "dev-only-migration-password";
    /** The development broker's password for every principal (local-infra makes them), published likewise. */
    public static final String DEVELOPMENT_KAFKA_PASSWORD = "dev-only-kafka-password";
    /**
     * The development Redis's password of every service's ACL user (local-infra makes the users), published likewise.
     */
    public static final String DEVELOPMENT_REDIS_PASSWORD = "dev-only-redis-password";

    private static final Set<String> PUBLISHED = Set.of(
            DEVELOPMENT_TOKEN_SECRET,
            DEVELOPMENT_ADMIN_TOKEN_SECRET,
            DEVELOPMENT_APPLICATION_PASSWORD,
            DEVELOPMENT_MIGRATION_PASSWORD,
            DEVELOPMENT_KAFKA_PASSWORD,
            DEVELOPMENT_REDIS_PASSWORD);

    private Secrets() {
    }

    /**
     * @return the secret {@code name} holds
     * @throws IllegalArgumentException naming the setting (never its value) when it is unset, shorter than
     *         {@code minBytes}, or, outside development mode, a published value
     */
    public static String required(Env env, DeploymentMode mode, String name, int minBytes) {
        String value = env.string(name, null);
        if (value == null) {
            throw new IllegalArgumentException(name + " is required (at least " + minBytes + " bytes)");
        }
        return checked(name, value, mode, minBytes);
    }

    /**
     * @param name what holds {@code value}, as the error names it (never the value itself)
     * @return {@code value}
     * @throws IllegalArgumentException when it is shorter than {@code minBytes}, or, outside development mode, a
     *         published value
     */
    public static String checked(String name, String value, DeploymentMode mode, int minBytes) {
        if (value.getBytes(StandardCharsets.UTF_8).length < minBytes) {
            throw new IllegalArgumentException(name + " is shorter than its minimum of " + minBytes + " bytes");
        }
        if (mode == DeploymentMode.PRODUCTION && PUBLISHED.contains(value)) {
            throw new IllegalArgumentException(
                    name + " is a development value published in this repository: set a secret of your own, or "
                            + DeploymentMode.SETTING + "=development on a developer's machine");
        }
        return value;
    }
}
