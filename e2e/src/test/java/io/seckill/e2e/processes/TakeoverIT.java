package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.processdriver.SeckillProcess;
import io.seckill.ingress.HttpApi;
import io.seckill.schemas.kafka.SkuKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

/**
 * Two of each consuming service; one of each is killed with kill -9. The survivors must take the
 * dead members' partitions over within seconds, not after the broker's default session timeout: a
 * sale on every partition goes on being decided within 10 s of the kill.
 */
class TakeoverIT {

    private static final int PARTITIONS = 12;
    private static final Duration TAKEOVER_BOUND = Duration.ofSeconds(10);

    @Test
    void ordersOnTheKilledInstancesPartitionsAreDecidedWithinSecondsOfTheKill() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("takeover", Map.of("SECKILL_TOPIC_PARTITIONS", Integer.toString(PARTITIONS)))) {
            List<SeckillProcess> pairs = new ArrayList<>();
            for (String service : List.of("stream-processor", "db-sink", "reconciler")) {
                pairs.add(cluster.launch(service + "-a", service));
                pairs.add(cluster.launch(service + "-b", service));
            }
            SeckillProcess ingress = cluster.launch("ingress-api", "ingress-api");
            pairs.add(ingress);
            ProcessCluster.awaitReady(pairs.toArray(SeckillProcess[]::new));
            HttpApi http = ProcessCluster.buyersApi(ingress);

            List<SaleUnderTest> sales = onePerPartition(http);
            for (SaleUnderTest sale : sales) {
                assertThat(sale.buy(1)).doesNotContainNull();
            }
            awaitSettled(sales, 1, Duration.ofMinutes(1));

            pairs.get(0).kill();
            pairs.get(2).kill();
            pairs.get(4).kill();
            long killedAt = System.nanoTime();
            for (SaleUnderTest sale : sales) {
                assertThat(sale.buy(1)).doesNotContainNull();
            }
            awaitSettled(sales, 2, TAKEOVER_BOUND.minusNanos(System.nanoTime() - killedAt));
        }
    }

    /** A sale whose SKU's records land on each partition of the topics, so every killed member's share is exercised. */
    private static List<SaleUnderTest> onePerPartition(HttpApi http) {
        Map<Integer, SaleUnderTest> byPartition = new TreeMap<>();
        while (byPartition.size() < PARTITIONS) {
            SaleUnderTest sale = SaleUnderTest.open(http, 10, "takeover");
            byPartition.putIfAbsent(BuiltInPartitioner.partitionForKey(SkuKey.of(sale.sku()).getBytes(StandardCharsets.UTF_8), PARTITIONS), sale);
        }
        return List.copyOf(byPartition.values());
    }

    private static void awaitSettled(List<SaleUnderTest> sales, int sold, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            for (SaleUnderTest sale : sales) {
                assertThat(sale.figures()).contains(SaleUnderTest.settled(10, sold));
            }
        });
    }
}
