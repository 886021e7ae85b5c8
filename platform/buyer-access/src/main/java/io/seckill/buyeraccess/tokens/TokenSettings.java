package io.seckill.buyeraccess.tokens;

import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.Secrets;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How one kind of token (JWT) is verified, buyers' or admins': the issuer and audience they must name, the keys that
 * may sign them, and the clock's tolerance. Keys come from a JWKS document (a shop's identity provider:
 * RS256 or ES256, chosen by {@code kid}) and/or shared HS256 secrets (the current one, with which
 * {@code mint-token} signs, and during a rotation the previous one). Buyers' and admins' are read from settings
 * of their own ({@code SECKILL_TOKEN_*}, {@code SECKILL_ADMIN_TOKEN_*}): whoever mints buyers' tokens (a shop's login
 * tier) holds no key an admin's token is checked with.
 *
 * @param hmacSecrets the current shared secret first, then the previous one; empty when only the JWKS signs
 * @param jwks        the JWKS document's address ({@code https:} or {@code file:}), if a provider signs
 * @param maxTokenBytes the longest token taken; a longer one is refused unread
 */
public record TokenSettings(
        String issuer,
        String audience,
        Duration clockSkew,
        Duration maxLifetime,
        List<String> hmacSecrets,
        Optional<URL> jwks,
        Duration jwksRefresh,
        String adminRole,
        int maxTokenBytes) {

    public static final String ADMIN_ISSUER = "SECKILL_ADMIN_TOKEN_ISSUER";
    public static final String ADMIN_AUDIENCE = "SECKILL_ADMIN_TOKEN_AUDIENCE";
    public static final String ADMIN_SECRET = "SECKILL_ADMIN_TOKEN_SECRET";
    public static final String ADMIN_PREVIOUS_SECRET = "SECKILL_ADMIN_TOKEN_PREVIOUS_SECRET";
    public static final String ADMIN_JWKS_URL = "SECKILL_ADMIN_TOKEN_JWKS_URL";
    public static final String ADMIN_MAX_LIFETIME = "SECKILL_ADMIN_TOKEN_MAX_LIFETIME_MS";
    public static final String ISSUER = "SECKILL_TOKEN_ISSUER";
    public static final String AUDIENCE = "SECKILL_TOKEN_AUDIENCE";
    public static final String SECRET = "SECKILL_TOKEN_SECRET";
    public static final String PREVIOUS_SECRET = "SECKILL_TOKEN_PREVIOUS_SECRET";
    public static final String JWKS_URL = "SECKILL_TOKEN_JWKS_URL";
    public static final String MAX_LIFETIME = "SECKILL_TOKEN_MAX_LIFETIME_MS";
    public static final String JWKS_REFRESH = "SECKILL_TOKEN_JWKS_REFRESH_MS";
    public static final String MAX_BYTES = "SECKILL_TOKEN_MAX_BYTES";
    /** Room for a provider's claims and an RS256 signature many times over, far under a header's 8 KiB. */
    public static final int DEFAULT_MAX_BYTES = 4096;
    /**
     * The shortest JWKS lifetime the key cache takes: it fetches the document again up to 30 s before the lifetime ends
     * and waits up to 15 s for it, which must both fit in it.
     */
    static final Duration MIN_JWKS_REFRESH = Duration.ofMillis(
            JWKSourceBuilder.DEFAULT_REFRESH_AHEAD_TIME + JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT);
    /** The development run's issuer; a production ingress names its identity provider's. */
    public static final String DEVELOPMENT_ISSUER = "seckill-development";
    public static final String DEVELOPMENT_ADMIN_ISSUER = "seckill-development-admin";
    public static final String DEFAULT_AUDIENCE = "seckill";
    public static final String DEFAULT_ADMIN_AUDIENCE = "seckill-admin";
    public static final String DEFAULT_ADMIN_ROLE = "seckill-admin";
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofHours(24);
    /** An admin's token opens every sale's stock: a stolen one is good for an hour at most. */
    public static final Duration DEFAULT_ADMIN_MAX_LIFETIME = Duration.ofHours(1);

    /** The settings one kind of token is read from, and its defaults. */
    private record Names(
            String secret,
            String previousSecret,
            String jwksUrl,
            String issuer,
            String audience,
            String maxLifetime,
            String developmentIssuer,
            String defaultAudience,
            Duration defaultMaxLifetime) {}

    private static final Names BUYERS = new Names(
            SECRET,
            PREVIOUS_SECRET,
            JWKS_URL,
            ISSUER,
            AUDIENCE,
            MAX_LIFETIME,
            DEVELOPMENT_ISSUER,
            DEFAULT_AUDIENCE,
            DEFAULT_MAX_LIFETIME);
    private static final Names ADMINS = new Names(
            ADMIN_SECRET,
            ADMIN_PREVIOUS_SECRET,
            ADMIN_JWKS_URL,
            ADMIN_ISSUER,
            ADMIN_AUDIENCE,
            ADMIN_MAX_LIFETIME,
            DEVELOPMENT_ADMIN_ISSUER,
            DEFAULT_ADMIN_AUDIENCE,
            DEFAULT_ADMIN_MAX_LIFETIME);
    /** Below this no token with an issuer, an audience and a signature fits. */
    static final int MIN_TOKEN_BYTES = 256;
    /** HS256 wants at least 256 bits of key. */
    public static final int MIN_SECRET_BYTES = 32;

    public TokenSettings {
        hmacSecrets = List.copyOf(hmacSecrets);
        if (hmacSecrets.isEmpty() && jwks.isEmpty()) {
            throw new IllegalArgumentException(
                    "tokens need a key: a shared HS256 secret or an identity provider's JWKS");
        }
    }

    /** The development run's buyers' settings: the shared secret signs and verifies, nothing else does. */
    public static TokenSettings development(String secret) {
        return development(BUYERS, secret);
    }

    /** The development run's admins' settings, with a secret of their own. */
    public static TokenSettings developmentAdmin(String adminSecret) {
        return development(ADMINS, adminSecret);
    }

    private static TokenSettings development(Names names, String secret) {
        return new TokenSettings(
                names.developmentIssuer(),
                names.defaultAudience(),
                Duration.ofSeconds(30),
                names.defaultMaxLifetime(),
                List.of(secret),
                Optional.empty(),
                Duration.ofMinutes(5),
                DEFAULT_ADMIN_ROLE,
                DEFAULT_MAX_BYTES);
    }

    /**
     * Buyers' tokens, read and checked: every secret by {@link Secrets#required}'s rules, the issuer named outside
     * development.
     */
    public static TokenSettings from(Env env, DeploymentMode mode) {
        return read(env, mode, BUYERS);
    }

    /** Admins' tokens, read and checked alike from their own settings. */
    public static TokenSettings adminFrom(Env env, DeploymentMode mode) {
        return read(env, mode, ADMINS);
    }

    private static TokenSettings read(Env env, DeploymentMode mode, Names names) {
        Optional<URL> jwks =
                Optional.ofNullable(env.string(names.jwksUrl(), null)).map(url -> jwksUrl(names.jwksUrl(), url));
        List<String> secrets = new ArrayList<>();
        if (jwks.isEmpty() || env.string(names.secret(), null) != null) {
            secrets.add(Secrets.required(env, mode, names.secret(), MIN_SECRET_BYTES));
        }
        if (env.string(names.previousSecret(), null) != null) {
            secrets.add(Secrets.required(env, mode, names.previousSecret(), MIN_SECRET_BYTES));
        }
        String issuer = switch (mode) {
            case PRODUCTION ->
                Optional.ofNullable(env.string(names.issuer(), null))
                        .orElseThrow(() -> new IllegalArgumentException(
                                names.issuer() + " is required: the issuer (iss) every such token must name"));
            case DEVELOPMENT -> env.string(names.issuer(), names.developmentIssuer());
        };
        return new TokenSettings(issuer, env.string(names.audience(), names.defaultAudience()),
                env.millis("SECKILL_TOKEN_CLOCK_SKEW_MS", Duration.ofSeconds(30)),
                env.millis(names.maxLifetime(), names.defaultMaxLifetime()), secrets, jwks,
                jwksRefresh(env),
                env.string("SECKILL_ADMIN_ROLE", DEFAULT_ADMIN_ROLE), maxTokenBytes(env));
    }

    /**
     * Buyers' and admins' keys apart: no secret of one is a secret of the other, and they are not one JWKS document.
     *
     * @throws IllegalArgumentException naming the settings (never a secret) where they meet
     */
    public static void checkApart(TokenSettings buyers, TokenSettings admins) {
        if (buyers.hmacSecrets().stream().anyMatch(admins.hmacSecrets()::contains)) {
            throw new IllegalArgumentException(ADMIN_SECRET + " (or " + ADMIN_PREVIOUS_SECRET
                    + ") is a buyers' token secret too: whoever mints buyers' "
                    + "tokens could mint an admin's; give admins a secret of their own");
        }
        if (buyers.jwks().isPresent() && buyers.jwks().map(URL::toString).equals(admins.jwks().map(URL::toString))) {
            throw new IllegalArgumentException(ADMIN_JWKS_URL + " is " + JWKS_URL
                    + ": every key that signs buyers' tokens would sign an admin's; " + "name the admins' own key set");
        }
    }

    private static int maxTokenBytes(Env env) {
        int bytes = env.integer(MAX_BYTES, DEFAULT_MAX_BYTES);
        if (bytes < MIN_TOKEN_BYTES) {
            throw new IllegalArgumentException(MAX_BYTES + " must be at least " + MIN_TOKEN_BYTES
                    + " (a signed token's header, claims and signature), was " + bytes);
        }
        return bytes;
    }

    private static Duration jwksRefresh(Env env) {
        Duration refresh = env.millis(JWKS_REFRESH, Duration.ofMinutes(5));
        if (refresh.compareTo(MIN_JWKS_REFRESH) < 0) {
            throw new IllegalArgumentException(JWKS_REFRESH + " must be at least " + MIN_JWKS_REFRESH.toMillis()
                    + " ms (the key cache fetches the "
                    + "document again up to 30 s before it expires and waits up to 15 s for it), was "
                    + refresh.toMillis());
        }
        return refresh;
    }

    private static URL jwksUrl(String setting, String value) {
        URI uri = URI.create(value);
        if (!"https".equals(uri.getScheme()) && !"file".equals(uri.getScheme())) {
            throw new IllegalArgumentException(
                    setting + " must be an https: or file: URL (keys fetched in the clear could be swapped)");
        }
        try {
            return uri.toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(setting + " is not a URL: " + e.getMessage(), e);
        }
    }

    /** Without the secrets: settings are logged and shown in failures, a secret never is. */
    @Override
    public String toString() {
        return "TokenSettings[issuer=" + issuer + ", audience=" + audience + ", clockSkew=" + clockSkew
                + ", maxLifetime=" + maxLifetime
                + ", hmacSecrets=" + hmacSecrets.size() + " (hidden), jwks="
                + jwks.map(URL::toString).orElse("none") + ", jwksRefresh=" + jwksRefresh
                + ", adminRole=" + adminRole + ", maxTokenBytes=" + maxTokenBytes + "]";
    }
}
