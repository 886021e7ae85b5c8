package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A real Redis Cluster of {@value #PRIMARIES} primaries with a replica each, every node an embedded redis-server
 * ({@link EmbeddedRedis}) in cluster mode in a folder of its own, the 16,384 slots split evenly. A node that stops
 * answering for {@value #NODE_TIMEOUT_MS} ms is failed over to its replica. The cluster keeps serving the slots of its
 * live primaries while one is down ({@code cluster-require-full-coverage no}): a sale's other SKUs keep selling.
 * New storage is made a cluster here; kept storage comes back as it was (each node's {@code nodes.conf}).
 */
record EmbeddedRedisCluster(List<EmbeddedRedis> nodes, Storage storage) implements RunningServer {

    static final int PRIMARIES = 3;
    private static final int SLOTS = 16_384;
    /**
     * Short, so a test's failover takes seconds; production clusters keep Redis's 15 s unless they measured otherwise.
     */
    private static final int NODE_TIMEOUT_MS = 2_000;

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String PORTS_FILE = "cluster.ports";

    static EmbeddedRedisCluster start() {
        return start(Storage.scratch("seckill-redis-cluster"));
    }

    static EmbeddedRedisCluster start(Storage storage) {
        boolean create = storage.isNew();
        int[] ports =
                KeptPorts.in(storage.directory().resolve(PORTS_FILE), PRIMARIES * 2, "the embedded Redis Cluster");
        List<EmbeddedRedis> nodes = new ArrayList<>();
        EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(nodes, storage);
        try {
            for (int i = 0; i < ports.length; i++) {
                Path folder = storage.directory().resolve("node-" + i);
                Files.createDirectories(folder);
                nodes.add(EmbeddedRedis.start(Storage.kept(folder), ports[i], List.of(
                        "cluster-enabled yes",
                        "cluster-config-file nodes.conf",
                        "cluster-node-timeout " + NODE_TIMEOUT_MS,
                        "cluster-require-full-coverage no")));
            }
            if (create) {
                cluster.form();
            }
            cluster.awaitReady();
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException("cannot start an embedded Redis Cluster in " + storage.directory(), e);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * The slots split among the first {@value #PRIMARIES} nodes; node {@code PRIMARIES + i} replicates primary {@code
     * i}.
     */
    private void form() {
        try (Jedis first = node(0)) {
            for (int i = 0; i < PRIMARIES; i++) {
                int from = SLOTS * i / PRIMARIES;
                int to = SLOTS * (i + 1) / PRIMARIES;
                try (Jedis primary = node(i)) {
                    primary.clusterAddSlots(IntStream.range(from, to).toArray());
                }
            }
            for (int i = 1; i < nodes.size(); i++) {
                first.clusterMeet("127.0.0.1", nodes.get(i).port());
            }
            await(
                    "every node knows every other",
                    () -> IntStream.range(0, nodes.size()).allMatch(i -> knownNodes(i) == nodes.size()));
            for (int i = 0; i < PRIMARIES; i++) {
                String primaryId;
                try (Jedis primary = node(i)) {
                    primaryId = primary.clusterMyId();
                }
                try (Jedis replica = node(PRIMARIES + i)) {
                    replica.clusterReplicate(primaryId);
                }
            }
        }
    }

    private void awaitReady() {
        await(
                "cluster_state:ok on every node, every replica in sync",
                () -> IntStream.range(0, nodes.size()).allMatch(this::ready));
    }

    private boolean ready(int index) {
        try (Jedis node = node(index)) {
            if (!node.clusterInfo().contains("cluster_state:ok")) {
                return false;
            }
            String replication = node.info("replication");
            return replication.contains("role:master") || replication.contains("master_link_status:up");
        }
    }

    private long knownNodes(int index) {
        try (Jedis node = node(index)) {
            return node.clusterNodes().lines().filter(line -> !line.contains("handshake") && !line.isBlank()).count();
        }
    }

    private void await(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (JedisException notYet) {
                // a node still starting: asked again below
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("embedded Redis Cluster: not " + what + " within " + READY_TIMEOUT);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while forming the embedded Redis Cluster", e);
            }
        }
    }

    private Jedis node(int index) {
        return new Jedis("127.0.0.1", nodes.get(index).port());
    }

    /** The seeds: every node, so a client finds the cluster whichever node is down. */
    @Override
    public String address() {
        return "redis://" + nodes.stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return "embedded Redis Cluster (" + PRIMARIES + " primaries, a replica each) on " + address();
    }

    @Override
    public void close() {
        for (EmbeddedRedis node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                // a node killed by a test: nothing left to stop
            }
        }
        storage.release();
    }
}
