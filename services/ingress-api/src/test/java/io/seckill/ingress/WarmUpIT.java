package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.warmup.BuyPathWarmUp;
import io.seckill.ingress.warmup.WarmUpSettings;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.kafka.WarmUpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * An ingress that warms its buy path before it serves: every warm-up request answered, and nothing of the warm-up left
 * where a user would look: no key of its sale or its buyers in Redis, no row in MySQL (SKUs, outbox, orders), no answer
 * in the service's metrics; on the topics only its rehearsed orders, each marked for the pipeline to drop; the rate
 * limits on, as in production, and a real sale sold right after.
 */
class WarmUpIT {

    private static final Pattern BUY_ANSWERS = Pattern.compile("(?m)^seckill_buy_seconds_count(?:\\{[^}]*})? (\\S+)$");
    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aWarmedIngressLeavesNoTraceOfItsWarmUpAndSells() throws Exception {
        Set<String> redisKeysBefore = redisKeys();
        int outboxRowsBefore = fixture.sql().fetchCount(OUTBOX);
        Map<TopicPartition, Long> topicEndsBefore = topicEnds();

        // On virtual threads, the setting's other value: the fixture's instance runs on platform threads.
        try (ManagedIngress warmed = fixture.start(Map.of(
                WarmUpSettings.REQUESTS,
                "600",
                "SECKILL_RATE_LIMIT_PER_USER",
                "5",
                "SECKILL_RATE_LIMIT_PER_ADDRESS",
                "50",
                "SECKILL_INGRESS_VIRTUAL_THREADS",
                "true"))) {
            BuyPathWarmUp.Outcome warmUp = warmed.ingress().warmUp();

            assertThat(warmUp.requests()).isEqualTo(600);
            assertThat(warmUp.answers())
                    .as("refusals that change nothing: sold out, not started")
                    .isEqualTo(Map.of(409, 600L));
            assertThat(warmUp.skus()).hasSize(2);
            Set<String> left = redisKeys();
            left.removeAll(redisKeysBefore);
            assertThat(left).as("Redis keys the warm-up left").isEmpty();
            assertThat(fixture.sql().fetchCount(SKU, SKU.ID.in(warmUp.skus()))).isZero();
            assertThat(fixture.sql().fetchCount(OUTBOX))
                    .as("outbox rows: the rehearsed writes were rolled back")
                    .isEqualTo(outboxRowsBefore);
            assertThat(fixture.sql().fetchCount(ORDERS, ORDERS.SKU_ID.in(warmUp.skus()))).isZero();
            // Sent without waiting for the broker: they arrive within moments of the warm-up's end.
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(warmUpOrders(warmUp.skus()))
                            .as("one rehearsed order sent down the pipeline every 20 requests")
                            .hasSize(600 / 20)
                            .allSatisfy(record -> assertThat(WarmUpHeaders.marked(record.headers()))
                                    .as("marked as the warm-up's")
                                    .isTrue()));
            assertThat(topicEnds().values().stream().mapToLong(Long::longValue).sum())
                    .as("records on the topics: the rehearsed orders alone")
                    .isEqualTo(topicEndsBefore.values().stream().mapToLong(Long::longValue).sum() + 600 / 20);
            assertThat(buyAnswers(warmed)).as("buy answers in the service's metrics").isZero();

            long sku = IngressFixture.newSkuId();
            fixture.http.openSale(sku, 1, 1);
            HttpApi buyers = warmed.http();
            assertThat(buyers.buy(sku, "warm-buyer-1", 1).status()).isEqualTo(202);
            assertThat(buyers.buy(sku, "warm-buyer-2", 1).status()).isEqualTo(409);
            assertThat(buyAnswers(warmed)).isEqualTo(2);
        }
    }

    private Set<String> redisKeys() {
        Set<String> keys = new HashSet<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = fixture.redis.scan(cursor, new ScanParams().count(1_000));
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    private List<ConsumerRecord<byte[], byte[]>> warmUpOrders(List<Long> warmUpSkus) {
        Set<String> keys = warmUpSkus.stream().map(SkuKey::of).collect(Collectors.toSet());
        try (KafkaProbe kafka = new KafkaProbe(fixture.infra.kafka())) {
            return kafka.readAll(Topic.ORDER_REQUESTS.topicName()).stream()
                    .filter(record -> keys.contains(new String(record.key(), StandardCharsets.UTF_8))).toList();
        }
    }

    private Map<TopicPartition, Long> topicEnds() throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(fixture.infra.kafka()))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (Topic<?> topic : List.of(Topic.ORDER_REQUESTS, Topic.DEAD_LETTERS)) {
                admin.describeTopics(List.of(topic.topicName()))
                        .allTopicNames()
                        .get()
                        .get(topic.topicName())
                        .partitions()
                        .forEach(partition ->
                                partitions.add(new TopicPartition(topic.topicName(), partition.partition())));
            }
            return admin
                    .listOffsets(partitions.stream()
                            .collect(Collectors.toMap(partition -> partition, any -> OffsetSpec.latest())))
                    .all()
                    .get()
                    .entrySet()
                    .stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, entry -> entry.getValue().offset()));
        }
    }

    private static long buyAnswers(ManagedIngress ingress) {
        Matcher count = BUY_ANSWERS.matcher(ingress.managementHttp().get("/metrics").body());
        return count.find() ? (long) Double.parseDouble(count.group(1)) : 0;
    }
}
