package io.seckill.redisstate;

import java.util.Map;
import java.util.stream.Collectors;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis's memory as {@code INFO memory} tells it (which the services' account may run without administrative
 * rights): what it uses, its limit ({@code 0}: none) and its eviction policy.
 */
public record RedisMemory(long usedBytes, long maxBytes, String policy) {

    /**
     * @throws redis.clients.jedis.exceptions.JedisException when Redis does not answer
     */
    public static RedisMemory read(UnifiedJedis redis) {
        Map<String, String> memory = redis.info("memory").lines()
                .filter(line -> line.indexOf(':') > 0)
                .collect(Collectors.toMap(line -> line.substring(0, line.indexOf(':')), line -> line.substring(line.indexOf(':') + 1).trim(),
                        (first, second) -> second));
        return new RedisMemory(Long.parseLong(memory.getOrDefault("used_memory", "0")), Long.parseLong(memory.getOrDefault("maxmemory", "0")),
                memory.getOrDefault("maxmemory_policy", "noeviction"));
    }
}
