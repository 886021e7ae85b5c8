package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaAccess;
import io.seckill.ingress.HttpApi;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.schemas.kafka.SkuKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Two of each consuming service; one of each is killed with kill -9. The survivors must take the
 * dead members' partitions over within seconds, not after the broker's default session timeout: a
 * sale on every partition goes on being decided within 10 s of the kill.
 */
class TakeoverIT {

    private static final int PARTITIONS = 12;
    private static final Duration TAKEOVER_BOUND = Duration.ofSeconds(10);
    private static final String PROBE_TOPIC = "takeover-partition-probe";

    @Test
    void ordersOnTheKilledInstancesPartitionsAreDecidedWithinSecondsOfTheKill() throws Exception {
        try (ProcessCluster cluster =
                ProcessCluster.start("takeover", Map.of("SECKILL_TOPIC_PARTITIONS", Integer.toString(PARTITIONS)))) {
            List<SeckillProcess> pairs = new ArrayList<>();
            for (String service : List.of("stream-processor", "db-sink", "reconciler")) {
                pairs.add(cluster.launch(service + "-a", service));
                pairs.add(cluster.launch(service + "-b", service));
            }
            SeckillProcess ingress = cluster.launch("ingress-api", "ingress-api");
            pairs.add(ingress);
            ProcessCluster.awaitReady(pairs.toArray(SeckillProcess[]::new));
            HttpApi http = ProcessCluster.buyersApi(ingress);

            List<SaleFixture> sales = onePerPartition(http, cluster.infra.kafka());
            for (SaleFixture sale : sales) {
                assertThat(sale.buy(1)).doesNotContainNull();
            }
            awaitSettled(sales, 1, Duration.ofMinutes(1));

            pairs.get(0).kill();
            pairs.get(2).kill();
            pairs.get(4).kill();
            long killedAt = System.nanoTime();
            for (SaleFixture sale : sales) {
                assertThat(sale.buy(1)).doesNotContainNull();
            }
            awaitSettled(sales, 2, Duration.ofMinutes(1));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt))
                    .as("from the kill until a sale on every partition was decided again")
                    .isLessThanOrEqualTo(TAKEOVER_BOUND);
        }
    }

    /**
     * A sale whose SKU's records land on each partition of the topics, so every killed member's share is
     * exercised. Where a key lands is asked of Kafka's own producer: a record keyed like the SKU's, sent
     * to a probe topic with as many partitions, lands where the SKU's records do.
     */
    private static List<SaleFixture> onePerPartition(HttpApi http, KafkaAccess kafka) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties());
                KafkaProducer<String, String> probe =
                        new KafkaProducer<>(kafka.clientProperties(), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic(PROBE_TOPIC, PARTITIONS, (short) 1))).all().get();
            Map<Integer, SaleFixture> byPartition = new TreeMap<>();
            while (byPartition.size() < PARTITIONS) {
                SaleFixture sale = SaleFixture.open(http, 10, "takeover");
                int partition = probe.send(new ProducerRecord<>(PROBE_TOPIC, SkuKey.of(sale.sku()), "probe"))
                        .get()
                        .partition();
                byPartition.putIfAbsent(partition, sale);
            }
            return List.copyOf(byPartition.values());
        }
    }

    private static void awaitSettled(List<SaleFixture> sales, int sold, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            for (SaleFixture sale : sales) {
                assertThat(sale.figures()).containsAllEntriesOf(SaleFixture.settled(10, sold));
            }
        });
    }
}
