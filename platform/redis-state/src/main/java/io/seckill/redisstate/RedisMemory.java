package io.seckill.redisstate;

import java.util.Comparator;
import java.util.Map;
import java.util.stream.Collectors;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis's memory as {@code INFO memory} tells it (which the services' account may run without administrative
 * rights): what it uses, its limit ({@code 0}: none) and its eviction policy.
 */
public record RedisMemory(long usedBytes, long maxBytes, String policy) {

    /**
     * The primary nearest its limit (used over maxmemory; by use alone among primaries without one): on a cluster each
     * primary fills on its own, and the first one full is where writes start failing.
     * @throws redis.clients.jedis.exceptions.JedisException when a primary does not answer
     */
    public static RedisMemory fullest(UnifiedJedis redis) {
        return RedisPrimaries.of(redis).stream().map(RedisMemory::read)
                .max(Comparator.comparingDouble(RedisMemory::fullness).thenComparingLong(RedisMemory::usedBytes))
                .orElseThrow();
    }

    /**
     * @throws redis.clients.jedis.exceptions.JedisException when the primary does not answer
     */
    public static RedisMemory read(RedisPrimaries.Primary primary) {
        Map<String, String> memory = primary.info("memory")
                .lines()
                .filter(line -> line.indexOf(':') > 0)
                .collect(Collectors.toMap(
                        line -> line.substring(0, line.indexOf(':')),
                        line -> line.substring(line.indexOf(':') + 1).trim(),
                        (first, second) -> second));
        return new RedisMemory(
                Long.parseLong(memory.getOrDefault("used_memory", "0")),
                Long.parseLong(memory.getOrDefault("maxmemory", "0")),
                memory.getOrDefault("maxmemory_policy", "noeviction"));
    }

    private double fullness() {
        return maxBytes == 0 ? 0 : (double) usedBytes / maxBytes;
    }
}
