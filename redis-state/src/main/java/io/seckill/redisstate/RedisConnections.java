package io.seckill.redisstate;

import java.net.URI;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.util.JedisURIHelper;

/** Opens the pooled Redis client every service uses. */
public final class RedisConnections {

    private RedisConnections() {
    }

    /** @param redisUrl {@code redis://[user:password@]host:port[/database]}, or {@code rediss://} for TLS */
    public static RedisClient open(String redisUrl, int maxConnections) {
        URI uri = URI.create(redisUrl);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnections);
        pool.setMaxIdle(maxConnections);
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .user(JedisURIHelper.getUser(uri))
                .password(JedisURIHelper.getPassword(uri))
                .database(JedisURIHelper.getDBIndex(uri))
                .protocol(JedisURIHelper.getRedisProtocol(uri));
        if (JedisURIHelper.isRedisSSLScheme(uri)) {
            // The JVM's trust store and hostname verification.
            client.sslOptions(SslOptions.defaults());
        }
        return RedisClient.builder().hostAndPort(JedisURIHelper.getHostAndPort(uri)).clientConfig(client.build()).poolConfig(pool).build();
    }
}
