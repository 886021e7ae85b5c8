package io.seckill.schemas.kafka;

import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.events.VersionedEvent;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The topic catalogue: every topic the pipeline uses, the type its values hold and how they are
 * encoded, how many partitions it starts with and how it is cleaned. Event topics are keyed by SKU id
 * ({@link SkuKey}) so one SKU's records stay ordered in one partition.
 *
 * @param <V> what a record's value decodes to
 */
public final class Topic<V> {

    public static final Topic<OrderRequested> ORDER_REQUESTS = events("order-requests", OrderRequested.class, 3);
    public static final Topic<OrderRequested> ORDERS_UNIQUE = events("order-requests-unique", OrderRequested.class, 3);
    public static final Topic<OrderResult> ORDER_RESULTS = events("order-results", OrderResult.class, 3);
    public static final Topic<StockCompensation> STOCK_COMPENSATIONS = events("stock-compensations", StockCompensation.class, 3);
    /** Raw bytes and key of the failed record; the reason is in the {@link DeadLetterHeaders}. */
    public static final Topic<byte[]> DEAD_LETTERS = new Topic<>("dead-letters", 1, Function.identity(), Function.identity());

    private static final String CLEANUP_POLICY = "delete";

    private final String name;
    private final int partitions;
    private final Function<byte[], V> decoder;
    private final Function<V, byte[]> encoder;

    private Topic(String name, int partitions, Function<byte[], V> decoder, Function<V, byte[]> encoder) {
        this.name = name;
        this.partitions = partitions;
        this.decoder = decoder;
        this.encoder = encoder;
    }

    private static <E extends VersionedEvent> Topic<E> events(String name, Class<E> type, int partitions) {
        return new Topic<>(name, partitions, bytes -> EventJson.decode(bytes, type), EventJson::encode);
    }

    public static List<Topic<?>> all() {
        return List.of(ORDER_REQUESTS, ORDERS_UNIQUE, ORDER_RESULTS, STOCK_COMPENSATIONS, DEAD_LETTERS);
    }

    public String topicName() {
        return name;
    }

    public int partitions() {
        return partitions;
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

    @Override
    public String toString() {
        return name;
    }
}
