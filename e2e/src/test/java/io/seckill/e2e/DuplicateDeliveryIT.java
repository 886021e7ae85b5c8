package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One order event delivered three times yields one order and charges stock once. */
@ExtendWith(Pipeline.StaysAlive.class)
class DuplicateDeliveryIT {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void anOrderDeliveredThreeTimesIsChargedOnce() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 10, 1);
        String orderId = pipeline.http.buy(sku, "dup-buyer", 1).orderId();
        byte[] event =
                pipeline.sql().fetchValue(OUTBOX.PAYLOAD, OUTBOX.ID.eq(orderId)).getBytes(StandardCharsets.UTF_8);

        try (KafkaProbe kafka = new KafkaProbe(pipeline.infra.kafka())) {
            // The relay's re-send and a producer retry, both through the de-duplicating stream...
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), event);
            kafka.send(Topic.ORDER_REQUESTS.topicName(), Long.toString(sku), event);
            // ...and one straight onto the sink's input, as if the de-duplication store had been lost.
            kafka.send(Topic.ORDERS_UNIQUE.topicName(), Long.toString(sku), event);
        }
        // One SKU is one partition and is processed in order: once this later order is decided,
        // every copy above has been through the stream and the sink.
        String later = pipeline.http.buy(sku, "later-buyer", 1).orderId();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("later-buyer", later)));

        assertThat(pipeline.http.orderStatus("dup-buyer", orderId)).isEqualTo("CONFIRMED");
        assertThat(pipeline.sql().fetchCount(ORDERS, ORDERS.ORDER_ID.eq(orderId))).isEqualTo(1);
        assertThat(pipeline.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku))).isEqualTo(8);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(pipeline.saleStore.state(sku).pending()).isZero();
            assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(8);
        });
        assertThat(pipeline.http.figures(sku).json().path("confirmedQuantity").asLong()).isEqualTo(2);
    }
}
