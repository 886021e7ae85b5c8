package io.seckill.redisstate;

import java.net.URI;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/** Opens the pooled Redis client every service uses. */
public final class RedisConnections {

    private RedisConnections() {
    }

    public static RedisClient open(String redisUrl, int maxConnections) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnections);
        pool.setMaxIdle(maxConnections);
        return RedisClient.builder().fromURI(URI.create(redisUrl)).poolConfig(pool).build();
    }
}
