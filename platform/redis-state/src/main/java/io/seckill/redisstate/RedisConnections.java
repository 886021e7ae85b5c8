package io.seckill.redisstate;

import io.seckill.config.RedisAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Opens the pooled Redis client every service uses: one node's, or a cluster's (a pool per node, commands routed by
 * slot).
 */
public final class RedisConnections {

    /**
     * How often a cluster client asks for the slot map besides when a node answers MOVED or stops answering: a replica
     * promoted after its primary died is found within this, even by a client that sent nothing to those slots
     * meanwhile.
     */
    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(1);
    /**
     * How long a cluster client retries a command whose primary does not answer (a failover takes seconds): a buyer is
     * answered 503 rather than held, and a repair job's run fails and comes again at its next period, when the slot map
     * may name the promoted replica.
     */
    private static final Duration RETRIES_AT_MOST = Duration.ofSeconds(2);

    private RedisConnections() {
    }

    public static UnifiedJedis open(RedisAddress address, int maxConnectionsPerNode) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnectionsPerNode);
        pool.setMaxIdle(maxConnectionsPerNode);
        URI uri = address.firstNodeUri();
        JedisClientConfig client = clientConfig(uri);
        return switch (address.topology()) {
            case SINGLE ->
                RedisClient.builder()
                        .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                        .clientConfig(client)
                        .poolConfig(pool)
                        .build();
            case CLUSTER -> {
                Set<HostAndPort> seeds = address.nodes().stream()
                        .map(node -> new HostAndPort(node.host(), node.port()))
                        .collect(Collectors.toSet());
                yield RedisClusterClient.builder()
                        .nodes(seeds)
                        .clientConfig(client)
                        .poolConfig(pool)
                        .topologyRefreshPeriod(TOPOLOGY_REFRESH)
                        .maxTotalRetriesDuration(RETRIES_AT_MOST)
                        .build();
            }
        };
    }

    private static JedisClientConfig clientConfig(URI uri) {
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .user(JedisURIHelper.getUser(uri))
                .password(JedisURIHelper.getPassword(uri))
                .database(JedisURIHelper.getDBIndex(uri))
                .protocol(JedisURIHelper.getRedisProtocol(uri));
        if (JedisURIHelper.isRedisSSLScheme(uri)) {
            // The JVM's trust store and hostname verification.
            client.sslOptions(SslOptions.defaults());
        }
        return client.build();
    }
}
