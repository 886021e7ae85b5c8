package io.seckill.schemas.kafka;

import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.events.VersionedEvent;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The topic catalogue: every topic the pipeline uses, the type its values hold and how they are encoded and how it is
 * cleaned (how many partitions each has is a deployment setting). The order topics are keyed by SKU id ({@link SkuKey})
 * so one SKU's records stay ordered in one partition; {@link #ORDER_LIFECYCLE} by order id, so one order's events do.
 *
 * @param <V> what a record's value decodes to
 */
public final class Topic<V> {

    public static final Topic<OrderRequested> ORDER_REQUESTS = events("order-requests", OrderRequested.class);
    public static final Topic<OrderRequested> ORDERS_UNIQUE = events("order-requests-unique", OrderRequested.class);
    public static final Topic<OrderResult> ORDER_RESULTS = events("order-results", OrderResult.class);
    public static final Topic<StockCompensation> STOCK_COMPENSATIONS =
            events("stock-compensations", StockCompensation.class);
    public static final Topic<OrderLifecycleEvent> ORDER_LIFECYCLE =
            events("order-lifecycle", OrderLifecycleEvent.class);
    /** Raw bytes and key of the failed record; the reason is in the {@link DeadLetterHeaders}. */
    public static final Topic<byte[]> DEAD_LETTERS =
            new Topic<>("dead-letters", Function.identity(), Function.identity());

    private static final String CLEANUP_POLICY = "delete";

    private final String name;
    private final Function<byte[], V> decoder;
    private final Function<V, byte[]> encoder;

    private Topic(String name, Function<byte[], V> decoder, Function<V, byte[]> encoder) {
        this.name = name;
        this.decoder = decoder;
        this.encoder = encoder;
    }

    private static <E extends VersionedEvent> Topic<E> events(String name, Class<E> type) {
        return new Topic<>(name, bytes -> EventJson.decode(bytes, type), EventJson::encode);
    }

    public static List<Topic<?>> all() {
        return List.of(
                ORDER_REQUESTS, ORDERS_UNIQUE, ORDER_RESULTS, STOCK_COMPENSATIONS, ORDER_LIFECYCLE, DEAD_LETTERS);
    }

    public String topicName() {
        return name;
    }

    public String cleanupPolicy() {
        return CLEANUP_POLICY;
    }

    /** @throws InvalidEventException when the bytes are not a valid value of this topic */
    public V decode(byte[] value) {
        return decoder.apply(value);
    }

    public byte[] encode(V value) {
        return encoder.apply(value);
    }

    /** A record of this topic keyed by SKU. */
    public ProducerRecord<String, byte[]> record(long skuId, V value) {
        return encodedRecord(skuId, encode(value));
    }

    /** A record of this topic keyed by SKU, for a value encoded earlier (an outbox row's payload). */
    public ProducerRecord<String, byte[]> encodedRecord(long skuId, byte[] encodedValue) {
        return new ProducerRecord<>(name, SkuKey.of(skuId), encodedValue);
    }

    /** A record of this topic under {@code key} (an order id on {@link #ORDER_LIFECYCLE}). */
    public ProducerRecord<String, byte[]> record(String key, V value) {
        return encodedRecord(key, encode(value));
    }

    /**
     * A record of this topic under {@code key} (an order id on {@link #ORDER_LIFECYCLE}), for a value encoded earlier.
     */
    public ProducerRecord<String, byte[]> encodedRecord(String key, byte[] encodedValue) {
        return new ProducerRecord<>(name, key, encodedValue);
    }

    @Override
    public String toString() {
        return name;
    }
}
