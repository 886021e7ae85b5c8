package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Each service reaches Redis as its own ACL user, which runs what the service runs and nothing else: neither may
 * flush, reconfigure, list or debug the server or run a script of its own, the ingress may not write the reconciler's
 * rebuild markers, the reconciler may not touch the buyers' rate limits or stored replies.
 */
class ServiceUsersIT {

    private static final UnifiedJedis INGRESS = RedisConnections.open(
            LocalInfrastructure.get().addressesFor(KafkaPrincipal.INGRESS).redis(), 2);
    private static final UnifiedJedis RECONCILER = RedisConnections.open(
            LocalInfrastructure.get().addressesFor(KafkaPrincipal.RECONCILER).redis(), 2);

    @AfterAll
    static void close() {
        INGRESS.close();
        RECONCILER.close();
    }

    @Test
    void noServiceMayFlushReconfigureListOrDebugTheServer() {
        for (UnifiedJedis service : List.of(INGRESS, RECONCILER)) {
            refused(() -> service.flushAll());
            refused(() -> service.flushDB());
            refused(() -> service.configGet("maxmemory-policy"));
            refused(() -> service.keys("seckill:*"));
            refused(() -> service.executeCommand(command("DEBUG", "SLEEP", "0")));
            refused(() -> service.executeCommand(command("ACL", "LIST")));
        }
    }

    /**
     * Scripts run only by digest: a service whose script cache the server lost loads the project's script and runs it
     * by its digest; a script of its own ({@code EVAL}) is refused.
     */
    @Test
    void noServiceMayRunAScriptOfItsOwnYetEachRunsItsScriptsAfterTheCacheIsLost() {
        for (UnifiedJedis service : List.of(INGRESS, RECONCILER)) {
            refused(() -> service.eval("return redis.call('DBSIZE')", List.of("seckill:{sku:1}:x"), List.of()));
        }
        RedisFixture.REDIS.scriptFlush();
        long sku = RedisFixture.newSkuId();
        long now = Instant.now().toEpochMilli();
        new SaleStore(new LuaRunner(RedisFixture.REDIS))
                .loadSale(sku, 5, 1, 1, now - 60_000, now + 3_600_000, 1, false);
        RedisFixture.REDIS.scriptFlush();

        assertThat(new SaleStore(new LuaRunner(INGRESS))
                        .reserve(sku, UUID.randomUUID().toString(), "b", 1, now, false)
                        .reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);
    }

    @Test
    void theIngressSellsButCannotWriteTheReconcilersRebuildMarkers() {
        long sku = RedisFixture.newSkuId();
        long now = Instant.now().toEpochMilli();
        new SaleStore(new LuaRunner(RedisFixture.REDIS))
                .loadSale(sku, 5, 1, 2, now - 60_000, now + 3_600_000, 1, false);
        SaleStore selling = new SaleStore(new LuaRunner(INGRESS));

        assertThat(selling.reserve(sku, UUID.randomUUID().toString(), "buyer", 1, now, false)
                        .reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);
        assertThat(new RateLimitCounters(new LuaRunner(INGRESS))
                        .admit(RateLimitCounters.Scope.BUY, "buyer", "192.0.2.1", Duration.ofSeconds(1), 5, 50))
                .isZero();
        new RedisEpoch(new LuaRunner(INGRESS)).requestRebuild();

        refused(() -> INGRESS.set("seckill:{epoch-0}", "forged"));
        refused(() -> INGRESS.del("seckill:{epoch-0}:rebuilding"));
        refused(() -> INGRESS.set("seckill:outside-every-family", "x"));
    }

    @Test
    void theReconcilerRebuildsButCannotTouchTheBuyersLimitsOrReplies() {
        RedisEpoch epoch = new RedisEpoch(new LuaRunner(RECONCILER));
        assertThat(epoch.checks()).isNotEmpty();
        refused(() -> RECONCILER.set("seckill:ratelimit:BUY:{user:someone}", "0"));
        refused(() -> RECONCILER.del("seckill:idempotency:{someone}:key"));
        refused(() -> RECONCILER.set("seckill:pass:spent:{challenge}", "1"));
    }

    private static CommandObject<Object> command(String name, String... arguments) {
        ProtocolCommand command = () -> name.getBytes(StandardCharsets.US_ASCII);
        return new CommandObject<>(
                new CommandArguments(command).addObjects((Object[]) arguments), BuilderFactory.RAW_OBJECT);
    }

    private static void refused(Runnable command) {
        assertThatThrownBy(command::run).isInstanceOf(JedisException.class).hasMessageContaining("NOPERM");
    }
}
