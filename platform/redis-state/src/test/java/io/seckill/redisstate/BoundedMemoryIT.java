package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redisstate.IdempotencyClaims.StoredReply;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * One client with fresh Idempotency-Keys, each answered and its reply stored, against a Redis held to a small limit
 * under the development servers' policy: memory stays under the limit, the replies are what goes, and the sales (stock,
 * reservations, ledgers) are whole.
 */
class BoundedMemoryIT {

    private static final long LIMIT_ABOVE_USED = 4L * 1024 * 1024;
    private static final int FRESH_KEYS = 16_000;
    private static final long ONE_WRITE = 16L * 1024;

    @Test
    void aFloodOfFreshIdempotencyKeysEvictsStoredRepliesNeverSaleState() throws Exception {
        assertThat(setting("maxmemory-policy")).as("the development servers' policy").isEqualTo("volatile-lru");
        assertThat(EvictionPolicy.of(Long.parseLong(setting("maxmemory")), setting("maxmemory-policy")))
                .isEqualTo(EvictionPolicy.Verdict.SAFE);
        SaleStore sales = new SaleStore(new LuaRunner(RedisFixture.REDIS));
        long sku = RedisFixture.newSkuId();
        long now = System.currentTimeMillis();
        sales.loadSale(sku, 100, 1, 1, now - 60_000, now + 3_600_000, 1, false);
        for (int buyer = 0; buyer < 30; buyer++) {
            sales.reserve(sku, UUID.randomUUID().toString(), "buyer-" + buyer, 1, now, false);
        }
        String configured = setting("maxmemory");
        long limit = usedMemory() + LIMIT_ABOVE_USED;
        RedisFixture.REDIS.configSet("maxmemory", Long.toString(limit));
        try {
            IdempotencyClaims claims = new IdempotencyClaims(
                    new LuaRunner(RedisFixture.REDIS), Duration.ofHours(24), Duration.ofSeconds(30));
            byte[] body = ("{\"orderId\":\"" + UUID.randomUUID() + "\",\"status\":\"PENDING\",\"padding\":\""
                            + "x".repeat(900) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> flood = new ArrayList<>();
                for (int client = 0; client < 8; client++) {
                    flood.add(clients.submit(() -> {
                        for (int i = 0; i < FRESH_KEYS / 8; i++) {
                            String key = UUID.randomUUID().toString();
                            claims.claim("flooder", key, "fingerprint", "owner");
                            claims.complete(
                                    "flooder",
                                    key,
                                    "owner",
                                    new StoredReply(202, "application/json", body, null, null));
                        }
                        return null;
                    }));
                }
                for (Future<?> client : flood) {
                    client.get();
                }
            } finally {
                clients.shutdownNow();
            }

            // Redis evicts before it runs a write, so the last write may leave it a few hundred bytes over.
            assertThat(usedMemory())
                    .as("%,d fresh replies of 1 KB stored", FRESH_KEYS)
                    .isLessThanOrEqualTo(limit + ONE_WRITE);
            assertThat(Long.parseLong(stat("evicted_keys"))).as("replies evicted to stay under the limit").isPositive();
        } finally {
            RedisFixture.REDIS.configSet("maxmemory", configured);
        }
        assertThat(sales.state(sku)).as("stock and pending reservations").isEqualTo(new RedisSkuState(70, 30));
        assertThat(sales.heldSince(sku, now + 1)).as("every reservation's ledger entry").hasSize(30);
    }

    private static String setting(String name) {
        return RedisFixture.REDIS.configGet(name).get(name);
    }

    private static long usedMemory() {
        return Long.parseLong(stat("used_memory"));
    }

    private static String stat(String name) {
        return RedisFixture.REDIS.info().lines().filter(line -> line.startsWith(name + ":")).findFirst().orElseThrow()
                .substring(name.length() + 1).trim();
    }
}
