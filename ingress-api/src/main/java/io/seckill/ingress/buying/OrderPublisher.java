package io.seckill.ingress.buying;

import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import io.seckill.runtime.RelayedSend;

/**
 * The fast path to Kafka, after the outbox row is committed. A failure here is logged, not thrown:
 * the order is already safe in the outbox and the relay re-sends it after the grace period.
 */
public final class OrderPublisher {


    private final Producer<String, byte[]> producer;

    public OrderPublisher(Producer<String, byte[]> producer) {
        this.producer = producer;
    }

    /** @param payload the order as encoded into its outbox row; {@code trace}: the order's, as its row records it */
    void publish(OrderRequested order, String payload, TraceParent trace) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topic.ORDER_REQUESTS.topicName(),
                SkuKey.of(order.skuId()), payload.getBytes(StandardCharsets.UTF_8));
        TraceHeaders.put(record.headers(), trace);
        RelayedSend.send(producer, record, "order " + order.orderId());
    }
}
