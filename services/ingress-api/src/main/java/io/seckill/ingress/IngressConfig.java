package io.seckill.ingress;

import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.Secrets;
import io.seckill.ingress.http.RateLimits;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.identity.Auth;
import io.seckill.ingress.identity.TrustedHeaderIdentity;
import io.seckill.ingress.orders.PaymentVerifier;
import io.seckill.ingress.queue.QueueSettings;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.ingress.watch.WatchedInstances;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.runtime.TopicLayout;
import java.time.Duration;
import java.util.List;

/**
 * Everything the ingress reads from its environment. See docs/configuration.md; the
 * secrets have no default, and outside development mode ({@link DeploymentMode}) no published value
 * is taken for one.
 */
public record IngressConfig(
        InfraAddresses infra,
        InfraAddresses adminInfra,
        int httpPort,
        String adminHost,
        int adminPort,
        Duration relayGrace,
        Duration outboxWait,
        int mysqlPoolSize,
        QueryPool queryPool,
        int redisPoolSize,
        Duration kafkaMaxBlock,
        Auth auth,
        PassSettings passes,
        RateLimits rateLimits,
        Duration idempotencyTtl,
        Duration soldOutMemory,
        Duration orderStatusTtl,
        int outboxWriters,
        int redisPipelines,
        boolean benchmarkMode,
        PaymentVerifier paymentVerifier,
        TopicLayout topics,
        List<WatchedInstances.Instance> watchedInstances,
        WarmUpSettings warmUp,
        QueueSettings queue,
        int adminRefusalsAuditedPerMinute,
        boolean virtualThreads,
        DeploymentMode mode) {

    public static final String PAYMENT_VERIFIER = "SECKILL_PAYMENT_VERIFIER";
    public static final String GATEWAY_SECRET = "SECKILL_GATEWAY_SECRET";
    /**
     * A yes/no that believed any peer's X-Forwarded-For: refused, so that no deployment keeps believing it unawares.
     */
    private static final String RETIRED_TRUST_FORWARDED_FOR = "SECKILL_TRUST_FORWARDED_FOR";
    /** A static admin password: refused, so that no deployment believes it has an admin credential it no longer has. */
    private static final String RETIRED_ADMIN_TOKEN = "SECKILL_ADMIN_TOKEN";

    /**
     * The MySQL connections of the buyers' routes other than buying (status, list, payment, cancellation), apart from
     * the buy path's: however much of that traffic comes, it never takes a connection the outbox writes need. A request
     * that waits longer than {@code connectionWait} for one is answered 503.
     */
    public record QueryPool(int size, Duration connectionWait) {}

    private static TrustedProxies trustedProxies(Env env) {
        if (env.string(RETIRED_TRUST_FORWARDED_FOR, null) != null) {
            throw new IllegalArgumentException(RETIRED_TRUST_FORWARDED_FOR
                    + " is not read: list the proxies whose X-Forwarded-For is believed in " + TrustedProxies.SETTING);
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
            throw new IllegalArgumentException(RETIRED_ADMIN_TOKEN
                    + " is not read: admins present a token with the role " + TokenSettings.DEFAULT_ADMIN_ROLE
                    + " (bin/seckill mint-token --admin NAME, or your identity provider's)");
        }
        TokenSettings buyers = TokenSettings.from(env, mode);
        TokenSettings admins = TokenSettings.adminFrom(env, mode);
        TokenSettings.checkApart(buyers, admins);
        return new Auth(
                authMode,
                buyers,
                admins,
                "trusted-header".equals(authMode)
                        ? Secrets.required(env, mode, GATEWAY_SECRET, TrustedHeaderIdentity.MIN_SECRET_BYTES)
                        : null);
    }

    /** The payment port: the development stand-in marks every reference paid, so production never takes it. */
    private static PaymentVerifier paymentVerifier(Env env, DeploymentMode mode) {
        String name = env.string(PAYMENT_VERIFIER, switch (mode) {
            case PRODUCTION -> PaymentVerifier.NONE;
            case DEVELOPMENT -> PaymentVerifier.DEVELOPMENT;
        });
        if (mode == DeploymentMode.PRODUCTION && PaymentVerifier.DEVELOPMENT.equals(name)) {
            throw new IllegalArgumentException(PAYMENT_VERIFIER + "=" + PaymentVerifier.DEVELOPMENT
                    + " takes every payment reference as paid: only in " + DeploymentMode.SETTING + "=development");
        }
        return PaymentVerifier.named(name);
    }

    public static IngressConfig from(Env env, InfraAddresses infra) {
        DeploymentMode mode = DeploymentMode.of(env);
        Auth auth = auth(env, mode);
        return new IngressConfig(
                infra,
                infra.forIngressAdmin(env),
                env.integer("SECKILL_HTTP_PORT", 8080),
                // The admin API is for operators on this host (or a network they choose), never for buyers' network.
                env.string("SECKILL_ADMIN_HOST", "127.0.0.1"),
                env.integer("SECKILL_ADMIN_PORT", 8081),
                Outbox.relayGrace(env),
                env.millis("SECKILL_OUTBOX_WAIT_MS", Duration.ofSeconds(3)),
                env.integer("SECKILL_INGRESS_POOL_SIZE", 16),
                new QueryPool(
                        env.integer("SECKILL_INGRESS_QUERY_POOL_SIZE", 4),
                        env.millis("SECKILL_INGRESS_QUERY_POOL_WAIT_MS", Duration.ofMillis(500))),
                env.integer("SECKILL_REDIS_POOL_SIZE", 64),
                env.millis("SECKILL_KAFKA_MAX_BLOCK_MS", Duration.ofSeconds(1)),
                auth,
                PassSettings.from(env, mode, auth.tokens()),
                new RateLimits(
                        new RateLimits.Limit(
                                env.integer("SECKILL_RATE_LIMIT_PER_USER", 5),
                                env.integer("SECKILL_RATE_LIMIT_PER_ADDRESS", 50)),
                        new RateLimits.Limit(
                                env.integer("SECKILL_ORDERS_RATE_LIMIT_PER_USER", 10),
                                env.integer("SECKILL_ORDERS_RATE_LIMIT_PER_ADDRESS", 100)),
                        new RateLimits.Limit(
                                env.integer("SECKILL_PASS_RATE_LIMIT_PER_USER", 5),
                                env.integer("SECKILL_PASS_RATE_LIMIT_PER_ADDRESS", 50)),
                        new RateLimits.Limit(
                                env.integer("SECKILL_QUEUE_RATE_LIMIT_PER_USER", 5),
                                env.integer("SECKILL_QUEUE_RATE_LIMIT_PER_ADDRESS", 50)),
                        env.millis("SECKILL_RATE_LIMIT_WINDOW_MS", Duration.ofSeconds(1)),
                        trustedProxies(env),
                        env.integer("SECKILL_REFUSED_TOKENS_PER_ADDRESS", 20)),
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
                QueueSettings.from(env),
                env.integer("SECKILL_ADMIN_REFUSALS_AUDITED_PER_MINUTE", 60),
                Boolean.parseBoolean(env.string("SECKILL_INGRESS_VIRTUAL_THREADS", "false")),
                mode);
    }
}
