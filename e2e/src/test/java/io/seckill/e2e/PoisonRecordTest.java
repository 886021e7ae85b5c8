package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Acceptance 4: undecodable bytes land on the DLQ with the reason; the records after them still flow. */
class PoisonRecordTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void undecodableBytesAreDeadLetteredAndTheNextOrderStillConfirms() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        byte[] poison = ("\u0000\u00ffnot an order " + sku).getBytes(StandardCharsets.ISO_8859_1);
        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafkaBootstrap())) {
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), poison);

            String next = pipeline.http.buy(sku, "after-poison", 1).orderId();
            await().atMost(Duration.ofSeconds(60)).until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("after-poison", next)));

            List<ConsumerRecord<byte[], byte[]>> dead = kafka.readAll(Topic.DEAD_LETTERS.topicName()).stream()
                    .filter(record -> Arrays.equals(record.value(), poison)).toList();
            assertThat(dead).hasSize(1);
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.REASON)).contains("undecodable OrderRequested");
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(Topic.ORDER_REQUESTS.topicName());
            assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.STAGE)).isEqualTo("stream-processor");
        }
        await().atMost(Duration.ofSeconds(30)).until(() ->
                pipeline.sql().fetchExists(DEAD_LETTERS, DEAD_LETTERS.RECORD_VALUE.eq(poison)));
        assertThat(pipeline.sql().fetchValue(DEAD_LETTERS.REASON, DEAD_LETTERS.RECORD_VALUE.eq(poison))).contains("undecodable");
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isEqualTo(4);
        await().atMost(Duration.ofSeconds(30)).until(() -> pipeline.saleStore.state(sku).pending() == 0);
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(4);
    }
}
