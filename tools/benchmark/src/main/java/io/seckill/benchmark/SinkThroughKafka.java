package io.seckill.benchmark;

import static io.seckill.schemas.db.Tables.ORDERS;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Database;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.processdriver.ServiceEnvironment;
import io.seckill.runtime.KafkaClients;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The sink end to end: the db-sink service as a process of its own (one instance, every partition), fed on
 * order-requests-unique as the stream-processor leaves its de-duplicated orders, and timed from the first record sent
 * to the last order the benchmark sees decided in MySQL: the consumer's polls, the records' decoding, the checks
 * against each order's outbox row, the transactions and the results it publishes, where the writer alone has none of
 * the broker's part.
 */
final class SinkThroughKafka implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration DECIDED_WITHIN = Duration.ofMinutes(5);
    private static final long POLL_MS = 20;

    private final SeckillProcess sink;
    private final KafkaProducer<String, byte[]> producer;

    private SinkThroughKafka(SeckillProcess sink, KafkaProducer<String, byte[]> producer) {
        this.sink = sink;
        this.producer = producer;
    }

    static SinkThroughKafka start(DevelopmentServers servers) throws InterruptedException {
        SeckillProcess sink = servers.service(
                "db-sink-benchmark",
                "db-sink",
                ServiceEnvironment.withJavaOptions("-Xmx512m").settings(servers.settings()));
        sink.awaitReady(READY_TIMEOUT);
        return new SinkThroughKafka(sink, new KafkaProducer<>(KafkaClients.producer(
                InfraAddresses.ofMigrationAccount(new Env(servers.settings())).kafka(), "sink-benchmark")));
    }

    /**
     * Sends {@code orders}, recorded in the outbox already, to the sink's topic and waits until MySQL holds a decision
     * for each; every one must be confirmed.
     * @return orders per second, from the first send to the last decision seen
     */
    double decide(Database database, List<OrderRequested> orders) throws InterruptedException, ExecutionException {
        Set<Long> skus = orders.stream().map(OrderRequested::skuId).collect(Collectors.toSet());
        long started = System.nanoTime();
        List<Future<RecordMetadata>> acks = new ArrayList<>(orders.size());
        for (OrderRequested order : orders) {
            acks.add(producer.send(Topic.ORDERS_UNIQUE.record(order.skuId(), order)));
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
        long deadline = started + DECIDED_WITHIN.toNanos();
        int decided = 0;
        while (decided < orders.size()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        decided + " of " + orders.size() + " orders decided within " + DECIDED_WITHIN);
            }
            Thread.sleep(POLL_MS);
            decided = database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.in(skus));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int confirmed = database.dsl()
                .fetchCount(ORDERS, ORDERS.SKU_ID.in(skus).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED)));
        if (confirmed != orders.size()) {
            throw new IllegalStateException(orders.size() + " orders sent, " + confirmed + " confirmed");
        }
        return orders.size() / seconds;
    }

    @Override
    public void close() {
        producer.close();
        sink.stopOrKill(Duration.ofSeconds(30));
    }
}
