package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Skus;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.redisstate.SaleStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The pipeline as separately scaled processes: 3 stream-processors, 2 db-sinks, 2 reconcilers and 2
 * ingresses over 12 partitions. Mid-sale one stream-processor and one db-sink are killed with kill -9;
 * the others take their partitions over, and at rest every promise holds.
 */
class ScaleOutIT {

    private static final int PARTITIONS = 12;
    private static final int SKUS = 6;
    private static final int STOCK_PER_SKU = 800;
    private static final int PER_USER_LIMIT = 3;
    private static final int BUYERS = 5_000;
    private static final int KILL_AFTER_ANSWERS = 1_000;
    private static final Orders ORDERS = new Orders();
    private static final Skus SKUS_TABLE = new Skus();

    @Test
    void killedInstancesPartitionsMoveToTheOthersAndEveryPromiseHoldsAtRest() throws Exception {
        try (ProcessCluster cluster =
                ProcessCluster.start("scale-out", Map.of("SECKILL_TOPIC_PARTITIONS", Integer.toString(PARTITIONS)))) {
            List<SeckillProcess> streams = IntStream.range(0, 3)
                    .mapToObj(i -> cluster.launch("stream-processor-" + i, "stream-processor"))
                    .toList();
            List<SeckillProcess> sinks = IntStream.range(0, 2)
                    .mapToObj(i -> cluster.launch("db-sink-" + i, "db-sink"))
                    .toList();
            List<SeckillProcess> reconcilers = IntStream.range(0, 2)
                    .mapToObj(i -> cluster.launch("reconciler-" + i, "reconciler"))
                    .toList();
            List<SeckillProcess> ingresses = IntStream.range(0, 2)
                    .mapToObj(i -> cluster.launch("ingress-api-" + i, "ingress-api"))
                    .toList();
            List<SeckillProcess> all = new ArrayList<>();
            List.of(streams, sinks, reconcilers, ingresses).forEach(all::addAll);
            ProcessCluster.awaitReady(all.toArray(SeckillProcess[]::new));
            assertThat(sinks.get(0).readiness().orElseThrow().detail("db-sink"))
                    .startsWith("order-requests-unique partitions");
            for (SeckillProcess stream : streams) {
                assertThat(Files.readString(Path.of("/proc", Long.toString(stream.pid()), "maps")))
                        .as(
                                "%s ready with RocksDB's native library loaded, not left for the sale's first order",
                                stream.name())
                        .contains("librocksdbjni");
            }

            List<HttpApi> buyersApis = ingresses.stream().map(ProcessCluster::buyersApi).toList();
            long firstSku = System.currentTimeMillis() % 1_000_000 * 100;
            List<Long> skus = LongStream.range(firstSku, firstSku + SKUS).boxed().toList();
            for (long sku : skus) {
                assertThat(buyersApis.get(0).openSale(sku, STOCK_PER_SKU, PER_USER_LIMIT).status()).isEqualTo(201);
            }

            List<Purchase> purchases = buy(buyersApis, skus, streams.get(0), sinks.get(0));

            SeckillProcess survivingSink = sinks.get(1);
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> survivingSink
                            .readiness()
                            .map(ready -> ready.detail("db-sink")
                                    .equals("order-requests-unique partitions "
                                            + IntStream.range(0, PARTITIONS)
                                                    .boxed()
                                                    .toList()))
                            .orElse(false));
            assertThat(survivingSink.metrics()).contains("kafka_consumer_coordinator_assigned_partitions");
            await().atMost(Duration.ofMinutes(2)).until(() -> activeTasks(streams.subList(1, 3)) == PARTITIONS);

            List<Purchase> accepted = purchases.stream().filter(purchase -> purchase.status() == 202).toList();
            assertThat(accepted).isNotEmpty();
            assertThat(purchases).allSatisfy(purchase -> assertThat(purchase.status()).isIn(202, 409));
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> ORDERS.decided(
                                            cluster.database.dsl(),
                                            accepted.stream()
                                                    .map(Purchase::orderId)
                                                    .toList())
                                    .size()
                            == accepted.size());

            for (long sku : skus) {
                long confirmed = ORDERS.confirmedQuantity(cluster.database.dsl(), sku);
                int mysqlStock = SKUS_TABLE.stock(cluster.database.dsl(), sku).orElseThrow();
                assertThat(confirmed).as("SKU %d sold", sku).isLessThanOrEqualTo(STOCK_PER_SKU);
                assertThat((long) mysqlStock)
                        .as("SKU %d: each order charged once", sku)
                        .isEqualTo(STOCK_PER_SKU - confirmed);
                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                    SaleStore.RedisSkuState redis = cluster.saleStore.state(sku);
                    assertThat(redis.pending()).as("SKU %d pending", sku).isZero();
                    assertThat(redis.stock()).as("SKU %d Redis stock", sku).isEqualTo(mysqlStock);
                });
            }
        }
    }

    /** 5,000 buyers, one buy each of 1-3 units of a random SKU, alternating ingresses; kills mid-sale. */
    private static List<Purchase> buy(List<HttpApi> ingresses, List<Long> skus, SeckillProcess streamToKill,
                                      SeckillProcess sinkToKill) throws Exception {
        Random random = new Random(42);
        AtomicInteger answered = new AtomicInteger();
        ExecutorService buyers = Executors.newFixedThreadPool(32);
        try {
            List<Future<Purchase>> pending = new ArrayList<>();
            for (int buyer = 0; buyer < BUYERS; buyer++) {
                HttpApi ingress = ingresses.get(buyer % ingresses.size());
                long sku = skus.get(random.nextInt(skus.size()));
                int quantity = 1 + random.nextInt(3);
                String userId = "scale-" + sku + "-" + buyer;
                pending.add(buyers.submit(() -> {
                    HttpApi.Reply reply = ingress.buy(sku, userId, quantity);
                    answered.incrementAndGet();
                    return new Purchase(reply.status(), reply.status() == 202 ? reply.orderId() : null);
                }));
            }
            await().atMost(Duration.ofMinutes(3)).until(() -> answered.get() >= KILL_AFTER_ANSWERS);
            streamToKill.kill();
            sinkToKill.kill();
            List<Purchase> purchases = new ArrayList<>();
            for (Future<Purchase> purchase : pending) {
                purchases.add(purchase.get());
            }
            return purchases;
        } finally {
            buyers.shutdownNow();
        }
    }

    private static int activeTasks(List<SeckillProcess> streams) {
        int tasks = 0;
        for (SeckillProcess stream : streams) {
            String detail = stream.readiness().map(ready -> ready.detail("stream-processor")).orElse("");
            int open = detail.indexOf("active tasks [");
            if (open >= 0) {
                String list = detail.substring(open + "active tasks [".length(), detail.indexOf(']', open));
                tasks += list.isBlank() ? 0 : list.split(",").length;
            }
        }
        return tasks;
    }

    private record Purchase(int status, String orderId) {
    }
}
