package io.seckill.ingress;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.Secrets;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.ingress.endings.PaymentVerifier;
import io.seckill.ingress.identity.BearerTokenIdentity;
import io.seckill.ingress.identity.BearerTokens;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.identity.TokenRefusals;
import io.seckill.ingress.identity.TokenSettings;
import io.seckill.ingress.identity.TrustedHeaderIdentity;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.pass.PassSettings;
import io.seckill.ingress.watch.WatchedInstances;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.runtime.TopicLayout;
import java.time.Duration;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Everything the ingress reads from its environment. See docs/configuration.md; the
 * secrets have no default, and outside development mode ({@link DeploymentMode}) no published value
 * is taken for one.
 */
public record IngressConfig(InfraAddresses infra, InfraAddresses adminInfra, int httpPort, String adminHost, int adminPort, Duration relayGrace, Duration outboxWait, int mysqlPoolSize,
                            QueryPool queryPool,
                            int redisPoolSize, Duration kafkaMaxBlock, Auth auth, PassSettings passes, RateLimits rateLimits,
                            Duration idempotencyTtl, Duration soldOutMemory, Duration orderStatusTtl,
                            int outboxWriters, int redisPipelines, boolean benchmarkMode, PaymentVerifier paymentVerifier,
                            TopicLayout topics, List<WatchedInstances.Instance> watchedInstances, WarmUpSettings warmUp, boolean virtualThreads,
                            DeploymentMode mode) {

    public static final String PAYMENT_VERIFIER = "SECKILL_PAYMENT_VERIFIER";
    public static final String GATEWAY_SECRET = "SECKILL_GATEWAY_SECRET";
    /** A yes/no that believed any peer's X-Forwarded-For: refused, so that no deployment keeps believing it unawares. */
    private static final String RETIRED_TRUST_FORWARDED_FOR = "SECKILL_TRUST_FORWARDED_FOR";
    /** A static admin password: refused, so that no deployment believes it has an admin credential it no longer has. */
    private static final String RETIRED_ADMIN_TOKEN = "SECKILL_ADMIN_TOKEN";

    /**
     * @param mode   "token" (Authorization: Bearer, the default) or {@code trusted-header} (X-User-Id set by an
     *               authenticating gateway); admins present a token with the admin role in either mode
     * @param tokens      how buyers' tokens are verified
     * @param adminTokens how admins' tokens are verified: keys of their own
     */
    public record Auth(String mode, TokenSettings tokens, TokenSettings adminTokens, String gatewaySecret) {
        public boolean trustedHeader() {
            return "trusted-header".equals(mode);
        }

        /** Who a request's buyer is, by the mode; its secrets were checked when the configuration was read. */
        public BuyerIdentity identity(BearerTokens verifier) {
            if (trustedHeader()) {
                LoggerFactory.getLogger(IngressConfig.class).warn("auth mode trusted-header: X-User-Id is believed from requests that carry "
                        + "the gateway's credential; only run this behind a gateway that sets both");
                return new TrustedHeaderIdentity(gatewaySecret);
            }
            return new BearerTokenIdentity(verifier);
        }

        /** Without the secrets: a configuration is logged and shown in failures, a secret never is. */
        @Override
        public String toString() {
            return "Auth[mode=" + mode + ", tokens=" + tokens + ", adminTokens=" + adminTokens + ", gatewaySecret=" + (gatewaySecret == null ? "unset" : "(hidden)") + "]";
        }
    }

    /**
     * Requests admitted per buyer and per client address in each {@code window}, for buying and, apart, for a buyer's
     * orders (status, list, payment, cancellation) and for sale passes (challenges and passes); the address is the
     * client's as {@code trustedProxies} tell it. Apart from those, in this instance's memory, the tokens refused per
     * address in a window before that address's next tokens are refused unread ({@code refusedTokensPerAddress}, 0: off).
     */
    public record RateLimits(Limit buy, Limit orders, Limit pass, Duration window, TrustedProxies trustedProxies, int refusedTokensPerAddress) {

        /** The per-address count of refused tokens these limits set. */
        public TokenRefusals tokenRefusals() {
            return new TokenRefusals(refusedTokensPerAddress, window, System::nanoTime);
        }

        public Limit of(RateLimitCounters.Scope scope) {
            return switch (scope) {
                case BUY -> buy;
                case ORDERS -> orders;
                case PASS -> pass;
            };
        }
    }

    /**
     * The MySQL connections of the buyers' routes other than buying (status, list, payment, cancellation), apart from the
     * buy path's: however much of that traffic comes, it never takes a connection the outbox writes need. A request
     * that waits longer than {@code connectionWait} for one is answered 503.
     */
    public record QueryPool(int size, Duration connectionWait) {
    }

    /** A limit of 0 switches that side off. */
    public record Limit(int perUser, int perAddress) {
        public boolean enabled() {
            return perUser > 0 || perAddress > 0;
        }
    }

    private static TrustedProxies trustedProxies(Env env) {
        if (env.string(RETIRED_TRUST_FORWARDED_FOR, null) != null) {
            throw new IllegalArgumentException(RETIRED_TRUST_FORWARDED_FOR + " is not read: list the proxies whose X-Forwarded-For is believed in "
                    + TrustedProxies.SETTING);
        }
        return TrustedProxies.parse(env.string(TrustedProxies.SETTING, ""));
    }

    /**
     * The buyers' and the admins' credentials, checked ({@link Secrets#required}): token keys always (admins
     * present tokens in either mode; theirs never the buyers'), the gateway's credential in trusted-header mode only.
     */
    private static Auth auth(Env env, DeploymentMode mode) {
        String authMode = env.string("SECKILL_AUTH_MODE", "token");
        if (!"token".equals(authMode) && !"trusted-header".equals(authMode)) {
            throw new IllegalArgumentException("SECKILL_AUTH_MODE must be token or trusted-header, was " + authMode);
        }
        if (env.string(RETIRED_ADMIN_TOKEN, null) != null) {
            throw new IllegalArgumentException(RETIRED_ADMIN_TOKEN + " is not read: admins present a token with the role " + TokenSettings.DEFAULT_ADMIN_ROLE
                    + " (bin/seckill mint-token --admin NAME, or your identity provider's)");
        }
        TokenSettings buyers = TokenSettings.from(env, mode);
        TokenSettings admins = TokenSettings.adminFrom(env, mode);
        TokenSettings.checkApart(buyers, admins);
        return new Auth(authMode, buyers, admins,
                "trusted-header".equals(authMode) ? Secrets.required(env, mode, GATEWAY_SECRET, TrustedHeaderIdentity.MIN_SECRET_BYTES) : null);
    }

    /** The payment port: the development stand-in marks every reference paid, so production never takes it. */
    private static PaymentVerifier paymentVerifier(Env env, DeploymentMode mode) {
        String name = env.string(PAYMENT_VERIFIER, switch (mode) {
            case PRODUCTION -> PaymentVerifier.NONE;
            case DEVELOPMENT -> PaymentVerifier.DEVELOPMENT;
        });
        if (mode == DeploymentMode.PRODUCTION && PaymentVerifier.DEVELOPMENT.equals(name)) {
            throw new IllegalArgumentException(PAYMENT_VERIFIER + "=" + PaymentVerifier.DEVELOPMENT + " takes every payment reference as paid: only in "
                    + DeploymentMode.SETTING + "=development");
        }
        return PaymentVerifier.named(name);
    }

    public static IngressConfig from(Env env, InfraAddresses infra) {
        DeploymentMode mode = DeploymentMode.of(env);
        Auth auth = auth(env, mode);
        return new IngressConfig(infra,
                infra.forIngressAdmin(env),
                env.integer("SECKILL_HTTP_PORT", 8080),
                // The admin API is for operators on this host (or a network they choose), never for buyers' network.
                env.string("SECKILL_ADMIN_HOST", "127.0.0.1"),
                env.integer("SECKILL_ADMIN_PORT", 8081),
                Outbox.relayGrace(env),
                env.millis("SECKILL_OUTBOX_WAIT_MS", Duration.ofSeconds(3)),
                env.integer("SECKILL_INGRESS_POOL_SIZE", 16),
                new QueryPool(env.integer("SECKILL_INGRESS_QUERY_POOL_SIZE", 4), env.millis("SECKILL_INGRESS_QUERY_POOL_WAIT_MS", Duration.ofMillis(500))),
                env.integer("SECKILL_REDIS_POOL_SIZE", 64),
                env.millis("SECKILL_KAFKA_MAX_BLOCK_MS", Duration.ofSeconds(1)),
                auth,
                PassSettings.from(env, mode, auth.tokens()),
                new RateLimits(new Limit(env.integer("SECKILL_RATE_LIMIT_PER_USER", 5), env.integer("SECKILL_RATE_LIMIT_PER_ADDRESS", 50)),
                        new Limit(env.integer("SECKILL_ORDERS_RATE_LIMIT_PER_USER", 10), env.integer("SECKILL_ORDERS_RATE_LIMIT_PER_ADDRESS", 100)),
                        new Limit(env.integer("SECKILL_PASS_RATE_LIMIT_PER_USER", 5), env.integer("SECKILL_PASS_RATE_LIMIT_PER_ADDRESS", 50)),
                        env.millis("SECKILL_RATE_LIMIT_WINDOW_MS", Duration.ofSeconds(1)),
                        trustedProxies(env), env.integer("SECKILL_REFUSED_TOKENS_PER_ADDRESS", 20)),
                env.millis("SECKILL_IDEMPOTENCY_TTL_MS", Duration.ofHours(24)),
                env.millis("SECKILL_SOLD_OUT_MEMORY_MS", Duration.ofMillis(500)),
                OrderStatusStore.ttl(env),
                env.integer("SECKILL_OUTBOX_WRITERS", 1),
                env.integer("SECKILL_REDIS_PIPELINES", 2),
                Boolean.parseBoolean(env.string("SECKILL_BENCHMARK_MODE", "false")),
                paymentVerifier(env, mode),
                TopicLayout.from(env),
                WatchedInstances.from(env),
                WarmUpSettings.from(env),
                Boolean.parseBoolean(env.string("SECKILL_INGRESS_VIRTUAL_THREADS", "false")),
                mode);
    }
}
