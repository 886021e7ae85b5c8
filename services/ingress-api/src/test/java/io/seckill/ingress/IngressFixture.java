package io.seckill.ingress;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Database;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisProbe;
import io.seckill.redisstate.SaleStore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * One ingress on the local infrastructure per test JVM, in development mode, with the rate limits off (the tests send
 * everything from one address and some buyers hammer on purpose; the rate-limit tests start their
 * own). Nothing consumes what it publishes: decisions are other services' business. Each test takes
 * its own SKU ids.
 */
final class IngressFixture {

    private static final Map<String, String> SETTINGS = settings();
    private static IngressFixture instance;
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);

    final InfraAddresses infra;
    final Env env;
    final ManagedIngress managed;
    final IngressApi ingress;
    final HttpApi http;
    final Database database;
    final UnifiedJedis redis;
    final SaleStore saleStore;
    final RedisProbe probe;

    private static Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>(RateLimitsOff.settings());
        // The lifecycle's tests pay with the development payment port.
        settings.put(DeploymentMode.SETTING, "development");
        settings.put("SECKILL_HTTP_PORT", "0");
        settings.put("SECKILL_ADMIN_PORT", "0");
        settings.put(TokenSettings.SECRET, HttpApi.TOKEN_SECRET);
        settings.put(TokenSettings.ADMIN_SECRET, HttpApi.ADMIN_TOKEN_SECRET);
        // A short warm-up, so every test meets an ingress that warmed up (a full one would only cost the suite time).
        settings.put(WarmUpSettings.REQUESTS, "100");
        // Every refused admin attempt of the suite recorded: the audit's tests read them one by one.
        settings.put(AdminAuditIT.REFUSALS_AUDITED_PER_MINUTE, "1000000");
        return Map.copyOf(settings);
    }

    private IngressFixture() {
        infra = LocalInfrastructure.get().operatorAddressesFor(KafkaPrincipal.INGRESS);
        env = new Env(SETTINGS);
        managed = ManagedIngress.start(IngressConfig.from(env, infra));
        LocalInfrastructure.get().closeFirstOnStop(managed);
        ingress = managed.ingress();
        http = managed.http();
        database = Database.connect(
                LocalInfrastructure.get().ownerAddresses(), "ingress-checks", 4, new SimpleMeterRegistry());
        // As the default user: tests stage and read what the ingress's own user may not.
        redis = RedisConnections.open(LocalInfrastructure.get().addresses().redis(), 8);
        saleStore = new SaleStore(new LuaRunner(redis));
        probe = new RedisProbe(redis);
    }

    static synchronized IngressFixture get() {
        if (instance == null) {
            instance = new IngressFixture();
        }
        return instance;
    }

    static long newSkuId() {
        return NEXT_SKU.incrementAndGet();
    }

    DSLContext sql() {
        return database.dsl();
    }

    /** An ingress of this fixture's servers configured by {@code settings} over the fixture's own. */
    ManagedIngress start(Map<String, String> settings) {
        Map<String, String> merged = new HashMap<>(SETTINGS);
        merged.putAll(settings);
        return ManagedIngress.start(IngressConfig.from(new Env(merged), infra));
    }
}
