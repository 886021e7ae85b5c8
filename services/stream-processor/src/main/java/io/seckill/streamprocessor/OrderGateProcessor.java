package io.seckill.streamprocessor;

import io.seckill.runtime.OrderTrail;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.RelayHeaders;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.kafka.WarmUpHeaders;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Lets each valid order through once per TTL. An order is "seen" if the store holds its id within
 * TTL of this record's timestamp, either side: a relay re-send can carry a later or an earlier time.
 * A relay re-send ({@link RelayHeaders}) goes through even when seen: the relay sends only orders
 * MySQL has not decided within its grace, so the first copy's forward may have been lost (an aborted
 * transaction) while this store kept its id; the sink is idempotent by order id. Anything that does
 * not decode into a valid {@link OrderRequested} goes to the dead-letter topic untouched, with the
 * reason in its headers. A warm-up's order ({@link WarmUpHeaders}) is looked up and forwarded, mark and all, but never
 * remembered, counted or logged: it warms the gate, the transaction and the sink and leaves the store as it was.
 */
final class OrderGateProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    static final String STAGE = "stream-processor";

    private final long ttlMs;
    private final GateMetrics metrics;
    private ProcessorContext<byte[], byte[]> context;
    private WindowStore<String, Long> seen;

    OrderGateProcessor(Duration ttl, GateMetrics metrics) {
        this.ttlMs = ttl.toMillis();
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.seen = context.getStateStore(OrderDedupTopology.DEDUP_STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        OrderRequested order;
        try {
            order = Topic.ORDER_REQUESTS.decode(record.value());
        } catch (InvalidEventException e) {
            deadLetter(record, e);
            return;
        }
        if (WarmUpHeaders.marked(record.headers())) {
            var _ = alreadySeen(order.orderId(), record.timestamp());
            context.forward(
                    record.withKey(SkuKey.of(order.skuId()).getBytes(StandardCharsets.UTF_8)),
                    OrderDedupTopology.UNIQUE_SINK);
            return;
        }
        OrderFacts facts = OrderFacts.of(order);
        Optional<TraceParent> trace = TraceHeaders.of(record.headers());
        OrderTrail.Scope scope = OrderTrail.about(facts, trace);
        try {
            pass(order, record, facts, trace);
        } finally {
            scope.close();
        }
    }

    /** Forwards the order unless a copy passed already (a relay's re-send passes anyway: the sink decides it once). */
    private void pass(
            OrderRequested order, Record<byte[], byte[]> record, OrderFacts facts, Optional<TraceParent> trace) {
        long timestamp = record.timestamp();
        if (alreadySeen(order.orderId(), timestamp)) {
            if (!RelayHeaders.resent(record.headers())) {
                metrics.duplicateDropped(order.orderId());
                OrderTrail.step(facts, trace, STAGE, "dropped: a copy already passed");
                return;
            }
            metrics.resendPassed(order.orderId());
        }
        seen.put(order.orderId(), Instant.now().toEpochMilli(), timestamp);
        byte[] key = SkuKey.of(order.skuId()).getBytes(StandardCharsets.UTF_8);
        context.forward(record.withKey(key), OrderDedupTopology.UNIQUE_SINK);
        OrderTrail.step(facts, trace, STAGE, "passed the gate to " + Topic.ORDERS_UNIQUE.topicName());
    }

    private boolean alreadySeen(String orderId, long timestamp) {
        Instant from = Instant.ofEpochMilli(Math.max(0, timestamp - ttlMs));
        Instant to = Instant.ofEpochMilli(timestamp + ttlMs);
        try (WindowStoreIterator<Long> hits = seen.fetch(orderId, from, to)) {
            return hits.hasNext();
        }
    }

    private void deadLetter(Record<byte[], byte[]> record, Exception failure) {
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        RecordMetadata origin = context.recordMetadata().orElse(null);
        DeadLetterHeaders.describe(headers, STAGE, failure,
                origin == null ? null : origin.topic(),
                origin == null ? -1 : origin.partition(),
                origin == null ? -1 : origin.offset());
        context.forward(new Record<>(record.key(), record.value(), record.timestamp(), headers),
                OrderDedupTopology.DEAD_LETTER_SINK);
    }
}
