package io.seckill.dbsink;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.mysqlstate.Database;
import io.seckill.runtime.ConsumerLoop;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.StockCompensation;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes de-duplicated orders, decides each SKU's share of a poll in one transaction, then publishes
 * the results (and a compensation for every rejection) and only then lets the offsets be committed.
 * A crash anywhere in between replays the records; decided orders are reported again, never re-charged.
 */
public final class DbSink implements AutoCloseable {

    static final String STAGE = "db-sink";
    private static final Logger LOG = LoggerFactory.getLogger(DbSink.class);

    private final Database database;
    private final KafkaProducer<String, byte[]> producer;
    private final OrderBatchWriter writer;
    private final DeadLetterPublisher deadLetters;
    private final KafkaClientMetrics producerMetrics;
    private final Admin admin;
    private final DecidedOrders decided;
    private ConsumerLoop<OrderRequested> loop;

    private DbSink(Database database, KafkaProducer<String, byte[]> producer, Admin admin, ServiceHost host) {
        this.database = database;
        this.producer = producer;
        this.admin = admin;
        BrokerCheck.addTo(host.readiness(), admin);
        this.writer = new OrderBatchWriter(database.dsl(), Clock.systemUTC());
        this.deadLetters = new DeadLetterPublisher(producer, STAGE);
        this.producerMetrics = new KafkaClientMetrics(producer);
        this.producerMetrics.bindTo(host.meters());
        this.decided = new DecidedOrders(host.meters());
    }

    public static DbSink start(DbSinkConfig config, ServiceHost host) {
        String bootstrap = config.infra().kafkaBootstrap();
        KafkaClients.ensureTopics(bootstrap, config.topicPartitions(), KafkaClients.START_TIMEOUT);
        Database database = Database.connectAndMigrate(config.infra(), "db-sink", config.poolSize(), host.meters());
        host.readiness().reachable("mysql", database::ping);
        DbSink sink = new DbSink(database, new KafkaProducer<>(KafkaClients.producer(bootstrap, "db-sink-producer")),
                Admin.create(KafkaClients.admin(bootstrap)), host);
        Properties consumer = KafkaClients.consumer(bootstrap, config.groupId(), "db-sink");
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.maxBatch());
        sink.loop = ConsumerLoop.start("db-sink", consumer, Topic.ORDERS_UNIQUE, sink.deadLetters, sink::handle, host);
        LOG.info("db-sink started: group {} reading {}", config.groupId(), Topic.ORDERS_UNIQUE.topicName());
        return sink;
    }

    private void handle(List<Delivery<OrderRequested>> deliveries) throws Exception {
        Map<Long, List<OrderRequested>> bySku = new LinkedHashMap<>();
        Map<String, ConsumerRecord<String, byte[]>> origins = new HashMap<>();
        for (Delivery<OrderRequested> delivery : deliveries) {
            OrderRequested order = delivery.value();
            bySku.computeIfAbsent(order.skuId(), sku -> new ArrayList<>()).add(order);
            origins.putIfAbsent(order.orderId(), delivery.record());
        }
        List<OrderResult> results = new ArrayList<>();
        bySku.forEach((skuId, orders) -> results.addAll(decide(skuId, orders, origins)));
        publish(results);
    }

    /** One transaction per SKU; a non-transient failure is narrowed down to the order that causes it. */
    private List<OrderResult> decide(long skuId, List<OrderRequested> orders, Map<String, ConsumerRecord<String, byte[]>> origins) {
        try {
            return writer.write(skuId, orders);
        } catch (DataAccessException e) {
            if (TransientFailures.isTransient(e)) {
                throw e;
            }
            LOG.warn("SKU {}: batch of {} failed for good, isolating the poison", skuId, orders.size(), e);
        }
        List<OrderResult> results = new ArrayList<>();
        for (OrderRequested order : orders) {
            try {
                results.addAll(writer.write(skuId, List.of(order)));
            } catch (DataAccessException e) {
                if (TransientFailures.isTransient(e)) {
                    throw e;
                }
                sendToDeadLetters(origins.get(order.orderId()), e);
            }
        }
        return results;
    }

    private void sendToDeadLetters(ConsumerRecord<String, byte[]> record, Exception reason) {
        try {
            deadLetters.publish(record, reason);
        } catch (Exception e) {
            throw new IllegalStateException("cannot dead-letter " + record.topic() + "-" + record.partition() + "@" + record.offset(), e);
        }
    }

    private void publish(List<OrderResult> results) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (OrderResult result : results) {
            acks.add(producer.send(Topic.ORDER_RESULTS.record(result.skuId(), result)));
            if (result.status() == OrderStatus.REJECTED) {
                acks.add(producer.send(Topic.STOCK_COMPENSATIONS.record(result.skuId(), StockCompensation.forRejected(result))));
            }
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
        results.forEach(decided::published);
    }

    @Override
    public void close() {
        if (loop != null) {
            loop.close();
        }
        producerMetrics.close();
        // Bounded: stopped during a broker outage, the process must still end within its grace period.
        producer.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
        database.close();
    }
}
