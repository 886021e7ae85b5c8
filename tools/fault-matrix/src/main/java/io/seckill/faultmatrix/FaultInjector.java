package io.seckill.faultmatrix;

import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.runtime.KafkaClients;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/** Causes each {@link Fault} for real on a {@link FaultCluster}, and repairs it. */
final class FaultInjector {

    private static final Duration RESTART_AFTER = Duration.ofSeconds(5);
    private static final Duration INGRESS_RESTART_AFTER = Duration.ofSeconds(3);
    private static final Duration BROKER_OUTAGE = Duration.ofSeconds(90);
    private static final Duration BROKER_STALL_AT_START = Duration.ofSeconds(75);
    private static final Duration MYSQL_STALL = Duration.ofSeconds(15);
    private static final int POISON_RECORDS = 1_000;
    /** Past the leak sweep's 7 s: the sweep settles a paused ingress's reservations while it cannot move. */
    private static final Duration INGRESS_PAUSE = Duration.ofSeconds(10);
    /** Past the relay grace of {@link io.seckill.processdriver.ServiceEnvironment#quickRepairs()} (3 s), twice over. */
    private static final Duration SINK_PAUSE = Duration.ofSeconds(8);
    /** Past the hanging-transaction bound of the quick repairs (30 s). */
    private static final Duration STREAM_PROCESSOR_PAUSE = Duration.ofSeconds(35);
    /** Two drift checks and more (every 2 s in the quick repairs). */
    private static final Duration REDIS_PAUSE = Duration.ofSeconds(5);
    /** The reconciler's watch interval (1 s by default): the rebuild has started by then. */
    private static final Duration REBUILD_STARTS = Duration.ofSeconds(1);
    private static final Duration REDIS_PAUSE_IN_REBUILD = Duration.ofSeconds(3);
    private static final Duration RECONCILER_PAUSE = Duration.ofSeconds(8);

    private final FaultCluster cluster;
    /** A killed ingress or broker coming back meanwhile; done when there is none. */
    private CompletableFuture<Void> restarting = CompletableFuture.completedFuture(null);
    private Optional<FaultCluster.KafkaNode> kafkaVictim = Optional.empty();

    FaultInjector(FaultCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Finds, before the sale starts, the Kafka node {@code fault} kills, if it kills one: then it strikes at its
     * moment.
     */
    void aim(Fault fault) throws Exception {
        kafkaVictim = switch (fault) {
            case KAFKA_BROKER_KILLED -> Optional.of(cluster.kafkaNode(false));
            case KAFKA_CONTROLLER_KILLED -> Optional.of(cluster.kafkaNode(true));
            case KILL_STREAM_PROCESSOR,
                    KILL_DB_SINK,
                    KILL_RECONCILER,
                    KILL_INGRESS,
                    BROKER_KILLED,
                    MYSQL_RESTARTED,
                    BROKER_UNREACHABLE,
                    BROKER_STALLED_AT_START,
                    REDIS_FLUSHALL,
                    REDIS_RESTARTED_EMPTY,
                    MYSQL_STALLED,
                    DUPLICATE_FLOOD,
                    POISON_FLOOD,
                    INGRESS_PAUSED_PAST_SWEEP,
                    SINK_PAUSED_PAST_RELAY_GRACE,
                    STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND,
                    REDIS_PAUSED_ACROSS_DRIFT_CHECKS,
                    REDIS_PAUSED_DURING_REBUILD,
                    RECONCILER_PAUSED,
                    REDIS_PRIMARY_KILLED,
                    BUCKETED_PRIMARY_KILLED,
                    BUCKETED_FLUSHALL -> Optional.empty();
        };
    }

    /**
     * Injects {@code fault} into the running sale of {@code skus}; returns once it is repaired.
     * @return when the repair happened ({@link System#nanoTime()}): for a killed ingress, the kill itself, since only
     *         the reconciler's sweep gives its reservations back and a restart repairs nothing of them
     */
    long injectAndRepair(Fault fault, List<Long> skus) throws Exception {
        switch (fault) {
            case KILL_STREAM_PROCESSOR -> cluster.killFor("stream-processor-a", RESTART_AFTER);
            case KILL_DB_SINK -> cluster.killFor("db-sink", RESTART_AFTER);
            case KILL_RECONCILER -> cluster.killFor("reconciler", RESTART_AFTER);
            case KILL_INGRESS -> {
                return killIngressBetweenReserveAndCommit();
            }
            case MYSQL_RESTARTED -> {
                cluster.killMysqlAndAwaitItsRestart();
                cluster.awaitAllReady();
            }
            case BROKER_KILLED -> {
                cluster.killServersAndStartAgain(false);
                cluster.awaitAllReady();
            }
            case BROKER_UNREACHABLE -> cluster.pauseKafkaFor(BROKER_OUTAGE);
            case BROKER_STALLED_AT_START -> cluster.pauseKafkaFor(BROKER_STALL_AT_START);
            case REDIS_FLUSHALL, BUCKETED_FLUSHALL -> cluster.redis().flushAll();
            case REDIS_RESTARTED_EMPTY -> {
                cluster.killServersAndStartAgain(true);
                cluster.awaitAllReady();
            }
            case MYSQL_STALLED -> cluster.pauseMysqlFor(MYSQL_STALL);
            case DUPLICATE_FLOOD -> republish(skus, 3);
            case POISON_FLOOD -> poison(skus);
            case INGRESS_PAUSED_PAST_SWEEP -> pauseIngressBetweenReserveAndCommit();
            case SINK_PAUSED_PAST_RELAY_GRACE -> cluster.pauseFor("db-sink", SINK_PAUSE);
            case STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND ->
                cluster.pauseFor("stream-processor-a", STREAM_PROCESSOR_PAUSE);
            case REDIS_PAUSED_ACROSS_DRIFT_CHECKS -> cluster.pauseRedisFor(REDIS_PAUSE);
            case REDIS_PAUSED_DURING_REBUILD -> {
                new RedisEpoch(new LuaRunner(cluster.redis())).requestRebuild();
                Thread.sleep(REBUILD_STARTS.toMillis());
                cluster.pauseRedisFor(REDIS_PAUSE_IN_REBUILD);
            }
            case RECONCILER_PAUSED -> cluster.pauseFor("reconciler", RECONCILER_PAUSE);
            case REDIS_PRIMARY_KILLED, BUCKETED_PRIMARY_KILLED ->
                cluster.killRedisPrimaryAndAwaitPromotion(skus.get(0));
            case KAFKA_BROKER_KILLED, KAFKA_CONTROLLER_KILLED -> {
                return killKafkaNode();
            }
        }
        return System.nanoTime();
    }

    /**
     * The ingress comes back on a thread of its own while the sale is judged: the sweep repairs what it held, not its
     * restart, so the time its JVM takes to start again is no part of the row's convergence.
     */
    private long killIngressBetweenReserveAndCommit() throws IOException, InterruptedException {
        long killedAt = whileWinnersWaitOnMysql(() -> cluster.kill("ingress-a"));
        restarting = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(INGRESS_RESTART_AFTER.toMillis());
                cluster.restart("ingress-a");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(e);
            }
        });
        return killedAt;
    }

    /**
     * The two brokers left keep a quorum and take over every partition the dead one led: that failover is the repair,
     * as a replica's promotion is in the Redis Cluster row, and it must itself come within the matrix's bound of the
     * kill (every partition deciding again). The sale is judged from it. The servers start the node again; the row ends
     * once it is back in every partition's in-sync replicas.
     */
    private long killKafkaNode() throws Exception {
        FaultCluster.KafkaNode node = kafkaVictim.orElseThrow(
                () -> new IllegalStateException("the Kafka node to kill was not found before the sale"));
        cluster.kill(node);
        long killedAt = System.nanoTime();
        long failedOverAt = cluster.awaitKafkaFailover(
                node.id(), Duration.ofMillis((long) (RowResult.CONVERGE_BOUND_SECONDS * 1_000)));
        System.out.printf(
                Locale.ROOT,
                "Kafka failed over from node %d %.1f s after the kill%n",
                node.id(),
                (failedOverAt - killedAt) / 1e9);
        // A thread of this one's making: it inherits the class loader the Kafka client finds its classes with (the
        // common pool's threads do not, under exec:java).
        restarting = CompletableFuture.runAsync(
                () -> {
                    try {
                        cluster.awaitKafkaNodeBack(node.id());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new CompletionException(e);
                    }
                },
                task -> Thread.ofPlatform().name("kafka-node-back").daemon().start(task));
        return failedOverAt;
    }

    /**
     * Waits for a killed service (or broker) that is coming back to be ready again; a broker's partitions are then led
     * by their preferred replicas again, so that each row's kill finds the leadership spread.
     */
    void awaitRestarts() throws InterruptedException, ExecutionException {
        restarting.get();
        if (kafkaVictim.isPresent()) {
            cluster.electPreferredKafkaLeaders();
        }
    }

    /** The ingress stopped past the leak sweep's bound: on SIGCONT its late inserts meet the sweep's fences. */
    private void pauseIngressBetweenReserveAndCommit() throws IOException, InterruptedException {
        whileWinnersWaitOnMysql(() -> cluster.pause("ingress-a"));
        Thread.sleep(INGRESS_PAUSE.toMillis());
        cluster.resume("ingress-a");
    }

    /** What strikes ingress-a while its winners wait. */
    @FunctionalInterface
    private interface Strike {
        void run() throws IOException, InterruptedException;
    }

    /**
     * MySQL stalled for a moment first, so ingress-a's winners wait between the reserve and the outbox commit;
     * {@code strike} hits the ingress then, and MySQL moves again.
     * @return when the strike happened ({@link System#nanoTime()})
     */
    private long whileWinnersWaitOnMysql(Strike strike) throws IOException, InterruptedException {
        cluster.pauseMysql();
        Thread.sleep(1_500);
        strike.run();
        long struck = System.nanoTime();
        cluster.resumeMysql();
        return struck;
    }

    /** Every order of the sale on order-requests so far, sent {@code times} more times, byte for byte. */
    private void republish(List<Long> skus, int times) throws Exception {
        Set<String> keys = skus.stream().map(SkuKey::of).collect(Collectors.toSet());
        List<ConsumerRecord<String, byte[]>> orders = readAll(Topic.ORDER_REQUESTS.topicName()).stream()
                .filter(record -> keys.contains(record.key())).toList();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(KafkaClients.producer(cluster.kafka(), "fault-matrix-duplicates"))) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < times; i++) {
                for (ConsumerRecord<String, byte[]> order : orders) {
                    acks.add(producer.send(
                            Topic.ORDER_REQUESTS.encodedRecord(Long.parseLong(order.key()), order.value())));
                }
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
    }

    private void poison(List<Long> skus) throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(KafkaClients.producer(cluster.kafka(), "fault-matrix-poison"))) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < POISON_RECORDS; i++) {
                byte[] poison = switch (i % 3) {
                    case 0 -> ("\u0000\u00ffnot an order " + i).getBytes(StandardCharsets.ISO_8859_1);
                    case 1 ->
                        "{\"schemaVersion\":1,\"orderId\":\"not-a-uuid\",\"skuId\":1}".getBytes(StandardCharsets.UTF_8);
                    default -> "{}".getBytes(StandardCharsets.UTF_8);
                };
                acks.add(producer.send(Topic.ORDER_REQUESTS.encodedRecord(skus.get(i % skus.size()), poison)));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
    }

    private List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        Properties props = KafkaClients.consumer(cluster.kafka(), "fault-matrix-reader", "fault-matrix-reader");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }
}
