package io.seckill.processdriver;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment a driven service process starts with, on top of what {@code bin/seckill} reads from the development
 * servers' {@code servers.env}: the one place that names the {@code SECKILL_*} settings a test or a benchmark changes.
 * Every driven process takes free ports (buyers', admin and management) and runs without rate limits (its buyers all
 * come from one address); the rest is chosen per use.
 */
public final class ServiceEnvironment {

    private final Map<String, String> settings = new LinkedHashMap<>();

    private ServiceEnvironment(String javaOptions) {
        settings.put("JAVA_OPTS", javaOptions);
        settings.put("SECKILL_MANAGEMENT_PORT", "0");
        settings.put("SECKILL_HTTP_PORT", "0");
        settings.put("SECKILL_ADMIN_PORT", "0");
        settings.put("SECKILL_RATE_LIMIT_PER_USER", "0");
        settings.put("SECKILL_RATE_LIMIT_PER_ADDRESS", "0");
        settings.put("SECKILL_ORDERS_RATE_LIMIT_PER_USER", "0");
        settings.put("SECKILL_ORDERS_RATE_LIMIT_PER_ADDRESS", "0");
        settings.put("SECKILL_PASS_RATE_LIMIT_PER_USER", "0");
        settings.put("SECKILL_PASS_RATE_LIMIT_PER_ADDRESS", "0");
        settings.put("SECKILL_QUEUE_RATE_LIMIT_PER_USER", "0");
        settings.put("SECKILL_QUEUE_RATE_LIMIT_PER_ADDRESS", "0");
    }

    /** @param javaOptions the JVM's options, e.g. a small heap where many processes share two cores */
    public static ServiceEnvironment withJavaOptions(String javaOptions) {
        return new ServiceEnvironment(javaOptions);
    }

    /**
     * Buyers authenticate with tokens signed by {@code tokenSecret} (HS256), admins with tokens signed by {@code
     * adminTokenSecret}.
     */
    public ServiceEnvironment tokenSecrets(String tokenSecret, String adminTokenSecret) {
        settings.put("SECKILL_TOKEN_SECRET", tokenSecret);
        settings.put("SECKILL_ADMIN_TOKEN_SECRET", adminTokenSecret);
        return this;
    }

    /**
     * Buyers named by a gateway's header instead of a token, as the baseline designs read them; the gateway proves
     * itself with {@code gatewaySecret}.
     */
    public ServiceEnvironment buyersNamedByGateway(String gatewaySecret) {
        settings.put("SECKILL_AUTH_MODE", "trusted-header");
        settings.put("SECKILL_GATEWAY_SECRET", gatewaySecret);
        return this;
    }

    /** The buyers' port, where a fixed one is needed; free by default. */
    public ServiceEnvironment httpPort(int port) {
        settings.put("SECKILL_HTTP_PORT", Integer.toString(port));
        return this;
    }

    /** Partitions of every topic the services create. */
    public ServiceEnvironment topicPartitions(int partitions) {
        settings.put("SECKILL_TOPIC_PARTITIONS", Integer.toString(partitions));
        return this;
    }

    /** The data directory of a process that keeps its own (e.g. {@code bin/seckill all}'s Streams state). */
    public ServiceEnvironment dataDirectory(Path directory) {
        settings.put("SECKILL_DATA_DIR", directory.toString());
        return this;
    }

    /**
     * The reconciler's repairs on short periods, so that a fault run sees each repair within seconds:
     * re-sends after 3 s, drift every 2 s, hanging transactions after 30 s, looked for every 2 s (a transaction a
     * killed broker left hanging is aborted at the check after the one that first sees it: two periods, which must
     * fit in a row's convergence bound with the rest of the repair). The leak sweep keeps its defaults: a fault run
     * times it as an operator would get it.
     */
    public ServiceEnvironment quickRepairs() {
        settings.put("SECKILL_RELAY_GRACE_MS", "3000");
        settings.put("SECKILL_DRIFT_CHECK_INTERVAL_MS", "2000");
        settings.put("SECKILL_HANGING_TRANSACTION_AFTER_MS", "30000");
        settings.put("SECKILL_HANGING_TRANSACTION_CHECK_INTERVAL_MS", "2000");
        return this;
    }

    /** Any other setting (docs/configuration.md), e.g. a test's own period. */
    public ServiceEnvironment setting(String name, String value) {
        settings.put(name, value);
        return this;
    }

    /** Every setting given, on top of the current ones. */
    public ServiceEnvironment settings(Map<String, String> more) {
        settings.putAll(more);
        return this;
    }

    public Map<String, String> asMap() {
        return Map.copyOf(settings);
    }
}
