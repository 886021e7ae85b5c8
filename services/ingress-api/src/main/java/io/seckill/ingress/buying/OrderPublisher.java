package io.seckill.ingress.buying;

import io.seckill.runtime.RelayedSend;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.kafka.WarmUpHeaders;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

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

    /**
     * Sends a rehearsed order of the warm-up's hidden sale the way a winner's is sent, marked ({@link WarmUpHeaders})
     * so that the pipeline runs it through and keeps nothing of it; nothing sends it again, {@code failed} hears of a
     * send that did not reach the broker.
     */
    public void publishWarmUp(OrderRequested order, Consumer<Exception> failed) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topic.ORDER_REQUESTS.topicName(),
                SkuKey.of(order.skuId()), EventJson.encodeToString(order).getBytes(StandardCharsets.UTF_8));
        WarmUpHeaders.mark(record.headers());
        try {
            var _ = producer.send(record, (metadata, failure) -> {
                if (failure != null) {
                    failed.accept(failure);
                }
            });
        } catch (KafkaException e) {
            failed.accept(e);
        }
    }
}
