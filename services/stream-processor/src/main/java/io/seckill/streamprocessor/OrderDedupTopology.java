package io.seckill.streamprocessor;

import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * order-requests -> [gate: decode, validate, de-duplicate] -> order-requests-unique, or -> dead-letters.
 *
 * <p>The de-duplication store is a persistent window store keyed by orderId: its retention is the TTL,
 * so old ids age out segment by segment without a scan, and the changelog makes it survive restarts.
 */
public final class OrderDedupTopology {

    public static final String DEDUP_STORE = "order-dedup-store";
    static final String SOURCE = "order-requests-source";
    static final String GATE = "order-gate";
    static final String UNIQUE_SINK = "unique-orders-sink";
    static final String DEAD_LETTER_SINK = "dead-letters-sink";

    private OrderDedupTopology() {
    }

    /** @param meters where the gate counts the duplicates it drops and the re-sends it lets through */
    public static Topology build(Duration dedupTtl, MeterRegistry meters) {
        GateMetrics metrics = new GateMetrics(meters);
        Topology topology = new Topology();
        topology.addSource(
                SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topic.ORDER_REQUESTS.topicName());
        topology.addProcessor(GATE, () -> new OrderGateProcessor(dedupTtl, metrics), SOURCE);
        topology.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore(DEDUP_STORE, dedupTtl, dedupTtl, false),
                Serdes.String(), Serdes.Long()), GATE);
        topology.addSink(
                UNIQUE_SINK,
                Topic.ORDERS_UNIQUE.topicName(),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                GATE);
        topology.addSink(
                DEAD_LETTER_SINK,
                Topic.DEAD_LETTERS.topicName(),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                GATE);
        return topology;
    }
}
