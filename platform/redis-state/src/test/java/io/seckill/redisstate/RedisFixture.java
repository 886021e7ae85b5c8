package io.seckill.redisstate;

import io.seckill.localinfra.LocalInfrastructure;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.UnifiedJedis;

/** One Redis client on the local infrastructure for this JVM's tests; each test takes its own SKU ids. */
final class RedisFixture {

    static final UnifiedJedis REDIS = RedisConnections.open(LocalInfrastructure.get().addresses().redis(), 16);
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);

    private RedisFixture() {
    }

    static long newSkuId() {
        return NEXT_SKU.incrementAndGet();
    }
}
