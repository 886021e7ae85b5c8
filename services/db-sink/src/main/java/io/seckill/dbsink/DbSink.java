package io.seckill.dbsink;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.config.KafkaAccess;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderBatchWriter;
import io.seckill.runtime.ConsumerLoop;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.OrderTrail;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.kafka.WarmUpHeaders;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes de-duplicated orders, decides each SKU's share of a poll in one transaction, then publishes
 * the results (and a compensation for every rejection) and only then lets the offsets be committed.
 * A crash anywhere in between replays the records; decided orders are reported again, never re-charged.
 */
public final class DbSink implements AutoCloseable {

    static final String STAGE = "db-sink";
    private static final int UNEXPECTED_ATTEMPTS = 3;
    private static final Duration UNEXPECTED_PAUSE = Duration.ofMillis(200);
    private static final Logger LOG = LoggerFactory.getLogger(DbSink.class);

    /** Bounded: stopped during a broker outage, the process must still end within its grace period. */
    private static final Duration KAFKA_CLOSE = Duration.ofSeconds(5);

    private final KafkaProducer<String, byte[]> producer;
    private final OrderBatchWriter writer;
    private final OrderDecisions decisions;
    private final DeadLetterPublisher deadLetters;
    private final UnsupportedRecords unsupported;
    private final DecisionCounters decisionCounts;
    private final OpenedResources opened;

    private DbSink(
            Database database,
            KafkaProducer<String, byte[]> producer,
            Duration windowTolerance,
            Duration paymentWindow,
            ServiceHost host,
            OpenedResources opened) {
        this.producer = producer;
        this.opened = opened;
        this.writer = new OrderBatchWriter(database.dsl(), host.clock(), windowTolerance, paymentWindow);
        this.decisions = new OrderDecisions(OrderDecisions.Writer.of(writer), UNEXPECTED_ATTEMPTS, UNEXPECTED_PAUSE);
        this.deadLetters = new DeadLetterPublisher(producer, STAGE);
        this.unsupported = new UnsupportedRecords(deadLetters, host.meters(), STAGE);
        this.decisionCounts = new DecisionCounters(host.meters());
    }

    /** Starts consuming; a start that fails closes what it opened, in reverse. */
    public static DbSink start(DbSinkConfig config, ServiceHost host) {
        KafkaAccess kafka = config.infra().kafka();
        KafkaClients.ensureTopics(kafka, config.topics(), KafkaClients.START_TIMEOUT);
        OpenedResources opened = new OpenedResources();
        try {
            Database database =
                    opened.add(Database.connect(config.infra(), "db-sink", config.poolSize(), host.meters()));
            host.readiness().reachable("mysql", database::ping);
            KafkaProducer<String, byte[]> producer = opened.add(
                    new KafkaProducer<>(KafkaClients.producer(kafka, "db-sink-producer")), p -> p.close(KAFKA_CLOSE));
            opened.add(new KafkaClientMetrics(producer)).bindTo(host.meters());
            Admin admin = opened.add(Admin.create(KafkaClients.admin(kafka)), a -> a.close(KAFKA_CLOSE));
            BrokerCheck.addTo(host.readiness(), admin);
            DbSink sink =
                    new DbSink(database, producer, config.saleWindowTolerance(), config.paymentWindow(), host, opened);
            Properties consumer = KafkaClients.consumer(kafka, config.groupId(), "db-sink");
            consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.maxBatch());
            opened.add(
                    ConsumerLoop.start("db-sink", consumer, Topic.ORDERS_UNIQUE, sink.deadLetters, sink::handle, host));
            LOG.info("db-sink started: group {} reading {}", config.groupId(), Topic.ORDERS_UNIQUE.topicName());
            return sink;
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    private void handle(List<Delivery<OrderRequested>> polled) throws Exception {
        Map<Boolean, List<Delivery<OrderRequested>>> warmUp = polled.stream()
                .collect(Collectors.partitioningBy(delivery -> WarmUpHeaders.marked(delivery.record().headers())));
        rehearse(warmUp.get(true));
        List<Delivery<OrderRequested>> deliveries = warmUp.get(false);
        Map<Long, List<OrderRequested>> bySku = new LinkedHashMap<>();
        // By identity: a forged copy equal to the real record still has its own origin.
        IdentityHashMap<OrderRequested, ConsumerRecord<String, byte[]>> origins = new IdentityHashMap<>();
        Map<String, TraceParent> traces = new HashMap<>();
        for (Delivery<OrderRequested> delivery : deliveries) {
            OrderRequested order = delivery.value();
            bySku.computeIfAbsent(order.skuId(), sku -> new ArrayList<>()).add(order);
            origins.put(order, delivery.record());
            TraceHeaders.of(delivery.record().headers()).ifPresent(trace -> traces.put(order.orderId(), trace));
        }
        List<OrderResult> results = new ArrayList<>();
        for (Map.Entry<Long, List<OrderRequested>> sku : bySku.entrySet()) {
            OrderBatchWriter.SkuDecisions decided = decisions.decide(sku.getKey(), sku.getValue(),
                    (order, reason) -> deadLetters.publish(origins.get(order), reason));
            results.addAll(decided.decided());
            for (OrderBatchWriter.Unsupported refused : decided.unsupported()) {
                unsupported.refuse(origins.get(refused.order()), refused.reason(), refused.detail());
            }
        }
        publish(results, traces);
    }

    /**
     * A warm-up's orders, decided in a transaction rolled back and then dropped: nothing is published, counted or
     * dead-lettered for them, and a rehearsal that fails (MySQL away) only leaves the first sale's batch colder.
     */
    private void rehearse(List<Delivery<OrderRequested>> warmUps) {
        Map<Long, List<OrderRequested>> bySku = warmUps.stream()
                .collect(Collectors.groupingBy(delivery -> delivery.value().skuId(), LinkedHashMap::new,
                        Collectors.mapping(Delivery::value, Collectors.toList())));
        bySku.forEach((sku, orders) -> {
            try {
                writer.rehearse(sku, orders);
            } catch (RuntimeException e) {
                LOG.debug("warm-up orders of SKU {} not rehearsed ({})", sku, e.toString());
            }
        });
    }

    /** Each decision, with the trace of the order it decides, when the order carried one. */
    private void publish(List<OrderResult> results, Map<String, TraceParent> traces) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (OrderResult result : results) {
            Optional<TraceParent> trace = Optional.ofNullable(traces.get(result.orderId()));
            acks.add(producer.send(traced(Topic.ORDER_RESULTS.record(result.skuId(), result), trace)));
            if (result.status() == OrderStatus.REJECTED) {
                acks.add(producer.send(traced(
                        Topic.STOCK_COMPENSATIONS.record(result.skuId(), StockCompensation.forRejected(result)),
                        trace)));
            }
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
        for (OrderResult result : results) {
            decisionCounts.published(result);
            OrderTrail.step(
                    OrderFacts.of(result),
                    Optional.ofNullable(traces.get(result.orderId())),
                    "db-sink",
                    "decided " + result.status() + (result.reason() == null ? "" : " (" + result.reason() + ")")
                            + " and published");
        }
    }

    private static ProducerRecord<String, byte[]> traced(
            ProducerRecord<String, byte[]> record, Optional<TraceParent> trace) {
        trace.ifPresent(known -> TraceHeaders.put(record.headers(), known));
        return record;
    }

    @Override
    public void close() {
        opened.close();
    }
}
