package io.seckill.redisstate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The primaries of the Redis the services use, each with the hash slots it serves: the one node of a single Redis
 * (every slot), or each shard's primary of a cluster, as the cluster's slot map says now. What is true of one server
 * (its run, its memory, its eviction policy) is asked of each primary; a SKU's state lives on the primary serving its
 * slot.
 */
public final class RedisPrimaries {

    static final int SLOTS = 16_384;

    private RedisPrimaries() {
    }

    /**
     * One primary of the slot map.
     * @param address {@code host:port}, as the cluster names it ({@code single-node} for a single node)
     * @param slotRanges the slots it serves, inclusive {@code [from, to]} pairs, lowest first
     */
    public record Primary(String address, List<int[]> slotRanges, Function<String, String> infoReader) {

        /** {@code INFO section} of this primary. @throws JedisException when it does not answer */
        public String info(String section) {
            return infoReader.apply(section);
        }

        public boolean servesSlot(int slot) {
            return slotRanges.stream().anyMatch(range -> slot >= range[0] && slot <= range[1]);
        }

        /** Whether the keys of a SKU of one bucket (its tag {@code {sku:ID}}) live on this primary. */
        public boolean serves(long skuId) {
            return serves(new SaleLayout(skuId, 1));
        }

        /** Whether any of the SKU's keys live on this primary: its layout and rebuild lock, or any of its buckets. */
        public boolean serves(SaleLayout layout) {
            return servesSlot(JedisClusterCRC16.getSlot(SkuKeys.layout(layout.skuId())))
                    || layout.all().stream().anyMatch(bucket -> servesSlot(JedisClusterCRC16.getSlot(bucket.stock())));
        }

        /** The lowest slot it serves: what names it across a failover (its replica takes the same slots). */
        public int firstSlot() {
            return slotRanges.get(0)[0];
        }

        @Override
        public String toString() {
            return address;
        }
    }

    /** @throws JedisException when no node answers the slot map */
    public static List<Primary> of(UnifiedJedis redis) {
        if (!(redis instanceof RedisClusterClient cluster)) {
            return List.of(new Primary("single-node", List.<int[]>of(new int[] {0, SLOTS - 1}), redis::info));
        }
        Map<String, List<int[]>> ranges = new LinkedHashMap<>();
        for (String line : nodeTable(cluster.getClusterNodes()).lines().toList()) {
            // <id> <ip:port@cport[,hostname]> <flags> <primary> <ping> <pong> <epoch> <link> <slot or range>...
            String[] fields = line.trim().split(" ", -1);
            if (fields.length < 9 || !List.of(fields[2].split(",", -1)).contains("master")) {
                continue;
            }
            String address = fields[1].split("[@,]", -1)[0];
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot being migrated or imported: still served by the side that owns it
                }
                String[] bounds = fields[i].split("-", -1);
                ranges.computeIfAbsent(address, _ -> new ArrayList<>())
                        .add(new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[bounds.length - 1])});
            }
        }
        List<Primary> primaries = new ArrayList<>();
        ranges.forEach((address, slots) -> {
            slots.sort((a, b) -> Integer.compare(a[0], b[0]));
            primaries.add(new Primary(address, List.copyOf(slots), section -> info(cluster, address, section)));
        });
        primaries.sort((a, b) -> Integer.compare(a.firstSlot(), b.firstSlot()));
        return List.copyOf(primaries);
    }

    /** CLUSTER NODES from the first node that answers (CLUSTER SHARDS is Redis 7's; this is every version's). */
    private static String nodeTable(Map<String, ConnectionPool> pools) {
        JedisException last = new JedisConnectionException("the cluster client knows no node");
        for (ConnectionPool pool : pools.values()) {
            try (Connection connection = pool.getResource()) {
                return new Jedis(connection).clusterNodes();
            } catch (JedisException e) {
                last = e;
            }
        }
        throw last;
    }

    private static String info(RedisClusterClient cluster, String address, String section) {
        ConnectionPool pool = cluster.getClusterNodes().get(address);
        if (pool == null) {
            throw new JedisConnectionException("the cluster client has no connection to " + address + " yet");
        }
        try (Connection connection = pool.getResource()) {
            return new Jedis(connection).info(section);
        }
    }
}
