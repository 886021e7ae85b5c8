package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.ingress.HttpApi;
import io.seckill.ingress.RateLimitsOff;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.launcher.SeckillSystem;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Database;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisProbe;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.TestHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * The whole system, started once per test JVM on the local infrastructure, with short relay timings
 * so lost publishes are recovered within seconds. Each test takes its own SKU ids.
 */
final class Pipeline {

    static final long RELAY_GRACE_MS = 1_500;
    private static Pipeline instance;
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);

    final InfraAddresses infra;
    final Env env;
    final TestHost host = new TestHost();
    final SeckillSystem system;
    final HttpApi http;
    final Database database;
    final UnifiedJedis redis;
    final SaleStore saleStore;
    final RedisProbe probe;

    private Pipeline() {
        infra = LocalInfrastructure.get().addresses();
        Map<String, String> settings = new HashMap<>(RateLimitsOff.settings());
        // Orders are paid through the development payment port.
        settings.put(DeploymentMode.SETTING, "development");
        settings.put("SECKILL_HTTP_PORT", "0");
        settings.put("SECKILL_ADMIN_PORT", "0");
        settings.put(TokenSettings.SECRET, HttpApi.TOKEN_SECRET);
        settings.put(TokenSettings.ADMIN_SECRET, HttpApi.ADMIN_TOKEN_SECRET);
        settings.put("SECKILL_RELAY_GRACE_MS", Long.toString(RELAY_GRACE_MS));
        settings.put("SECKILL_RELAY_INTERVAL_MS", "200");
        settings.put("SECKILL_DRIFT_CHECK_INTERVAL_MS", "60000");
        settings.put("SECKILL_STREAMS_STATE_DIR", temporaryDirectory());
        // A short warm-up: the tests meet an ingress that warmed up, without a full one's seconds.
        settings.put(WarmUpSettings.REQUESTS, "100");
        env = new Env(settings);
        system = SeckillSystem.start(env, LocalInfrastructure.get()::addressesFor, host.host());
        // As a service's process says once everything started: the operator page shows the instance ready.
        host.host().readiness().servicesStarted();
        LocalInfrastructure.get().closeFirstOnStop(system);
        http = new HttpApi(system.httpPort(), system.adminPort());
        database = Database.connect(
                LocalInfrastructure.get().ownerAddresses(), "e2e-checks", 4, new SimpleMeterRegistry());
        redis = RedisConnections.open(infra.redis(), 8);
        saleStore = new SaleStore(new LuaRunner(redis));
        probe = new RedisProbe(redis);
    }

    static synchronized Pipeline get() {
        if (instance == null) {
            instance = new Pipeline();
        }
        return instance;
    }

    /**
     * Fails a test after which a part of the shared pipeline reported that it cannot continue: a dead
     * consumer loop would otherwise show only as a later test's timeout.
     */
    static final class StaysAlive implements AfterEachCallback {

        @Override
        public void afterEach(ExtensionContext context) {
            assertThat(fatalFailuresSoFar()).as("parts of the pipeline that cannot continue").isEmpty();
        }
    }

    /** What the pipeline's parts reported as fatal so far; none while it has not started. */
    private static synchronized List<String> fatalFailuresSoFar() {
        return instance == null ? List.of() : instance.host.fatalFailures();
    }

    static long newSkuId() {
        return NEXT_SKU.incrementAndGet();
    }

    DSLContext sql() {
        return database.dsl();
    }

    private static String temporaryDirectory() {
        try {
            return Files.createTempDirectory("e2e-streams").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
