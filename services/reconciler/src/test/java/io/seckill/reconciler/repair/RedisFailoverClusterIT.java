package io.seckill.reconciler.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.Stores;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.RedisPrimaries.Primary;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.SaleStore.RedisSkuState;
import io.seckill.schemas.events.OrderRequested;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

/**
 * On a real Redis Cluster of three primaries with a replica each (this JVM's servers): a sale over SKUs on every
 * primary, bought concurrently through pipelines, never oversold; then a primary killed (SIGKILL) after its replica
 * missed its last reservations (the replica stopped, SIGSTOP, and its link cut while they were made). Replication is
 * asynchronous, so the promoted replica does not hold them, while MySQL's outbox does (each order is recorded before
 * its buyer hears 202): the recovery sees a primary of another server run and rebuilds that primary's SKUs from MySQL,
 * the lost reservations included, within 10 s of the promotion, and leaves the other primaries' SKUs alone.
 */
class RedisFailoverClusterIT {

    private static final int STOCK = 40;
    private static final Pattern PROCESS_ID = Pattern.compile("process_id:(\\d+)");
    private static final Pattern REPLICA = Pattern.compile("slave0:ip=([^,]+),port=(\\d+)");

    private final RedisEpoch epoch = new RedisEpoch(Stores.LUA);
    private final RedisRecovery recovery = new RedisRecovery(
            Stores.sql(),
            new Skus(),
            new SaleSnapshots(),
            Stores.SALES,
            Stores.ROOMS,
            epoch,
            Duration.ofMillis(500),
            Stores.metrics());
    private static final List<Long> STOPPED = Collections.synchronizedList(new ArrayList<>());

    @AfterAll
    static void resumeStopped() throws IOException, InterruptedException {
        for (long pid : STOPPED) {
            signal("CONT", pid);
        }
    }

    @Test
    void aPrimaryKilledWithWritesItsReplicaNeverGotIsRebuiltFromMySqlAlone() throws Exception {
        recovery.rebuildIfLost();
        List<Primary> primaries = epoch.primaries();
        assertThat(primaries).as("three primaries serve the slots").hasSize(3);
        Map<Primary, Long> skus = new HashMap<>();
        for (Primary primary : primaries) {
            skus.put(primary, Stores.openSaleOn(primary, STOCK, 2));
        }

        Map<Long, List<OrderRequested>> sold = buyConcurrently(List.copyOf(skus.values()), 3 * STOCK);
        for (long sku : skus.values()) {
            assertThat(sold.get(sku)).as("SKU %d sold out, never oversold", sku).hasSize(STOCK);
            assertThat(Stores.SALES.state(sku)).isEqualTo(new RedisSkuState(0, STOCK));
        }

        Primary victim = primaries.get(1);
        long victimSku = Stores.openSaleOn(victim, 10, 2);
        long bystanderSku = Stores.openSaleOn(primaries.get(0), 10, 2);
        List<OrderRequested> replicated = buyConcurrently(List.of(victimSku), 5).get(victimSku);
        String replicaAddress;
        long replicaPid;
        long victimPid;
        try (Jedis primary = node(victim.address())) {
            Matcher replica = REPLICA.matcher(primary.info("replication"));
            assertThat(replica.find()).as("the victim has a replica").isTrue();
            replicaAddress = replica.group(1) + ":" + replica.group(2);
            victimPid = processId(primary);
            // Replicated before the replica is stopped: the first five orders are on both.
            assertThat(primary.waitReplicas(1, 5_000)).isEqualTo(1);
        }
        try (Jedis replica = node(replicaAddress)) {
            replicaPid = processId(replica);
        }
        signal("STOP", replicaPid);
        STOPPED.add(replicaPid);
        // The link cut, as a partition would: what the primary takes from now on never reaches the replica's socket.
        try (Jedis primary = node(victim.address())) {
            assertThat(primary.clientKill(ClientKillParams.clientKillParams().type(ClientType.REPLICA))).isOne();
        }
        List<OrderRequested> lostWithThePrimary = buyConcurrently(List.of(victimSku), 5).get(victimSku);
        assertThat(lostWithThePrimary).hasSize(5);
        // A reservation Redis took without an order behind it (the ingress died before recording it): the sweep's, not
        // the rebuild's.
        assertThat(Stores.SALES
                        .reserve(
                                bystanderSku,
                                "01a22969-0000-7000-8000-00000000b001",
                                "bystander",
                                1,
                                Instant.now().toEpochMilli(),
                                false)
                        .reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);

        ProcessHandle.of(victimPid).orElseThrow().destroyForcibly();
        signal("CONT", replicaPid);
        STOPPED.remove(replicaPid);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> epoch.primaries().stream().anyMatch(primary -> primary.address().equals(replicaAddress)));
        Instant promoted = Instant.now();
        assertThat(Stores.SALES.state(victimSku)).as("the promoted replica lacks the dead primary's last reservations")
                .isEqualTo(new RedisSkuState(5, 5));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            recovery.rebuildIfLost();
            assertThat(Stores.SALES.state(victimSku)).isEqualTo(new RedisSkuState(0, 10));
        });
        assertThat(Duration.between(promoted, Instant.now())).isLessThan(Duration.ofSeconds(10));
        List<String> recorded = new ArrayList<>();
        replicated.forEach(order -> recorded.add(order.orderId()));
        lostWithThePrimary.forEach(order -> recorded.add(order.orderId()));
        assertThat(Stores.SALES.heldSince(victimSku, Long.MAX_VALUE))
                .extracting(held -> held.order().orderId())
                .as("the ledger is MySQL's open orders, the lost ones included")
                .containsExactlyInAnyOrderElementsOf(recorded);
        assertThat(Stores.SALES.state(bystanderSku))
                .as("another primary's SKU is not rebuilt: its unrecorded reservation stays for the sweep")
                .isEqualTo(new RedisSkuState(9, 1));
        assertThat(Stores.SALES.state(skus.get(victim)))
                .as("the victim's sold-out SKU, rebuilt as it was")
                .isEqualTo(new RedisSkuState(0, STOCK));
        assertThat(recovery.rebuildIfLost()).as("every primary marked again").isZero();
    }

    /**
     * Buyers of their own, 2 threads, each buying one unit at a time through a shared pipeline, as the ingress does.
     */
    private static Map<Long, List<OrderRequested>> buyConcurrently(List<Long> skus, int buyersPerSku) throws Exception {
        Map<Long, List<OrderRequested>> sold = new ConcurrentHashMap<>();
        try (LuaRunner pipelined = LuaRunner.pipelined(Stores.REDIS, 2);
             ExecutorService buyers = Executors.newFixedThreadPool(8)) {
            SaleStore sales = new SaleStore(pipelined);
            List<Future<Optional<OrderRequested>>> attempts = new ArrayList<>();
            for (long sku : skus) {
                sold.put(sku, Collections.synchronizedList(new ArrayList<>()));
                for (int i = 0; i < buyersPerSku; i++) {
                    String buyer = "buyer-" + sku + "-" + i + "-" + System.nanoTime();
                    attempts.add(buyers.submit(() -> Stores.bought(sales, sku, buyer, Instant.now().plusSeconds(600))));
                }
            }
            for (Future<Optional<OrderRequested>> attempt : attempts) {
                attempt.get().ifPresent(order -> sold.get(order.skuId()).add(order));
            }
        }
        return sold;
    }

    private static Jedis node(String address) {
        int colon = address.lastIndexOf(':');
        return new Jedis(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    }

    private static long processId(Jedis node) {
        Matcher pid = PROCESS_ID.matcher(node.info("server"));
        assertThat(pid.find()).isTrue();
        return Long.parseLong(pid.group(1));
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }
}
