package io.seckill.faultmatrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SkuKeys;
import io.seckill.runtime.KafkaClients;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jooq.DSLContext;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/** Causes each {@link Fault} for real on a {@link FaultCluster}, and repairs it. */
final class FaultInjector {

    private static final Duration RESTART_AFTER = Duration.ofSeconds(5);
    private static final Duration INGRESS_RESTART_AFTER = Duration.ofSeconds(3);
    private static final Duration BROKER_OUTAGE = Duration.ofSeconds(90);
    private static final Duration BROKER_STALL_AT_START = Duration.ofSeconds(75);
    private static final Duration MYSQL_STALL = Duration.ofSeconds(15);
    /** Into a MySQL stall, when what it caught is counted: the buyers' requests have met it by then. */
    private static final Duration STALL_SEEN_AFTER = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STATE_WAIT = Duration.ofSeconds(10);
    /** ingress-a, the first of {@link FaultCluster#ingresses()}: the one the ingress rows strike. */
    private static final int STRUCK_INGRESS = 0;
    private static final Duration STATE_POLL = Duration.ofMillis(20);
    private static final int POISON_RECORDS = 1_000;
    /** Past the leak sweep's 7 s: the sweep settles a paused ingress's reservations while it cannot move. */
    private static final Duration INGRESS_PAUSE = Duration.ofSeconds(10);
    /** Past the relay grace of {@link io.seckill.processdriver.ServiceEnvironment#quickRepairs()} (3 s), twice over. */
    private static final Duration SINK_PAUSE = Duration.ofSeconds(8);
    /** Long enough for a query to a MySQL that answers, on a loaded machine. */
    private static final Duration STALL_PROBE = Duration.ofSeconds(2);
    /** Past the hanging-transaction bound of the quick repairs (30 s). */
    private static final Duration STREAM_PROCESSOR_PAUSE = Duration.ofSeconds(35);
    /** Two drift checks and more (every 2 s in the quick repairs). */
    private static final Duration REDIS_PAUSE = Duration.ofSeconds(5);
    /** The reconciler's watch interval (1 s by default): the rebuild has started by then. */
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
     * What a fault did: when it was repaired ({@link System#nanoTime()}), and what of the sale it met, counted once the
     * sale is at rest (from numbers taken at the strike, or from what the repair did by then).
     */
    record Strike(long repairedAt, Callable<Landing> landing) {
    }

    /**
     * Injects {@code fault} into the running sale of {@code skus}; returns once it is repaired. A fault aimed at a
     * process strikes the one that holds part of the sale (the stream-processor owning its partitions); what it met is
     * counted from the stores, the broker and the processes, never from the services' own figures.
     * @return for a killed ingress, repaired at the kill itself, since only the reconciler's sweep gives its
     *         reservations back and a restart repairs nothing of them
     */
    Strike injectAndRepair(Fault fault, List<Long> skus) throws Exception {
        UnifiedJedis redis = cluster.redis();
        return switch (fault) {
            case KILL_STREAM_PROCESSOR ->
                strikeOwner(skus, "killed", service -> cluster.killFor(service, RESTART_AFTER));
            case KILL_DB_SINK -> {
                long undecided = once(() -> SaleInFlight.recordedUndecided(db(), skus));
                cluster.killFor("db-sink", RESTART_AFTER);
                yield now(undecided, "orders recorded and undecided when the sink died");
            }
            case KILL_RECONCILER -> {
                long open = once(() -> SaleInFlight.openReservations(redis, skus));
                cluster.killFor("reconciler", RESTART_AFTER);
                yield now(open, "reservations open when the reconciler died");
            }
            case KILL_INGRESS -> new Strike(killIngressBetweenReserveAndCommit(), () -> caughtOnStruckIngress(skus));
            case MYSQL_RESTARTED -> {
                long open = once(() -> SaleInFlight.openReservations(redis, skus));
                cluster.killMysqlAndAwaitItsRestart();
                cluster.awaitAllReady();
                yield now(open, "reservations open when mysqld died");
            }
            case BROKER_KILLED -> {
                long undecided = once(() -> SaleInFlight.recordedUndecided(db(), skus));
                cluster.killServersAndStartAgain(false);
                cluster.awaitAllReady();
                yield now(undecided, "orders recorded and undecided when the broker died");
            }
            case BROKER_UNREACHABLE, BROKER_STALLED_AT_START -> {
                long undecided = once(() -> SaleInFlight.recordedUndecided(db(), skus));
                cluster.pauseKafkaFor(fault == Fault.BROKER_UNREACHABLE ? BROKER_OUTAGE : BROKER_STALL_AT_START);
                yield now(undecided, "orders recorded and undecided when the broker stopped");
            }
            case REDIS_FLUSHALL -> {
                Map<String, String> generations = SaleInFlight.generations(redis, skus);
                long keysLeft = flushAllAndCount(redis);
                yield new Strike(System.nanoTime(), () -> new Landing(
                        keysLeft == 0 ? SaleInFlight.bucketsRebuilt(redis, skus, generations) : 0,
                        "sale buckets rebuilt after FLUSHALL left " + keysLeft + " keys"));
            }
            case BUCKETED_FLUSHALL -> {
                Map<String, String> generations = SaleInFlight.generations(redis, skus);
                redis.flushAll();
                long emptied = SaleInFlight.bucketsEmptied(redis, generations);
                yield new Strike(System.nanoTime(), () -> new Landing(
                        emptied == generations.size() ? SaleInFlight.bucketsRebuilt(redis, skus, generations) : 0,
                        "sale buckets rebuilt after FLUSHALL emptied " + emptied + " of " + generations.size()));
            }
            case REDIS_RESTARTED_EMPTY -> {
                Map<String, String> generations = SaleInFlight.generations(redis, skus);
                cluster.killServersAndStartAgain(true);
                cluster.awaitAllReady();
                yield new Strike(System.nanoTime(), () -> new Landing(
                        SaleInFlight.bucketsRebuilt(cluster.redis(), skus, generations),
                        "sale buckets rebuilt after Redis came back empty"));
            }
            case MYSQL_STALLED -> {
                // Reserved after MySQL stopped: between reserve and commit, whatever became of them.
                Set<String> before = SaleInFlight.reservedOrders(redis, skus);
                cluster.pauseMysql();
                Thread.sleep(STALL_SEEN_AFTER.toMillis());
                Set<String> caught = new HashSet<>(SaleInFlight.reservedOrders(redis, skus));
                caught.removeAll(before);
                // Stood still: a query sent now gets no answer (it is answered, and ignored, once MySQL resumes).
                boolean stood = !answersWithin(STALL_PROBE);
                Thread.sleep(MYSQL_STALL.minus(STALL_SEEN_AFTER).toMillis());
                cluster.resumeMysql();
                yield now(stood ? caught.size() : 0, "orders reserved while MySQL stood still (between reserve and"
                        + " commit)" + (stood ? "" : ", but MySQL ANSWERED during its stall"));
            }
            case DUPLICATE_FLOOD -> now(republish(skus, 3), "records of the sale's orders re-published");
            case POISON_FLOOD -> now(poison(skus), "poison records the broker took");
            case INGRESS_PAUSED_PAST_SWEEP -> {
                pauseIngressBetweenReserveAndCommit();
                yield new Strike(System.nanoTime(), () -> caughtOnStruckIngress(skus));
            }
            case SINK_PAUSED_PAST_RELAY_GRACE -> {
                cluster.pauseFor("db-sink", SINK_PAUSE);
                yield new Strike(System.nanoTime(), () -> new Landing(
                        sentAgain(skus), "orders the relay sent again while the sink stood still"));
            }
            case STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND ->
                strikeOwner(skus, "paused", service -> cluster.pauseFor(service, STREAM_PROCESSOR_PAUSE));
            case REDIS_PAUSED_ACROSS_DRIFT_CHECKS -> {
                long open = once(() -> SaleInFlight.openReservations(redis, skus));
                cluster.pauseRedisFor(REDIS_PAUSE);
                yield now(open, "reservations open when Redis stalled");
            }
            case REDIS_PAUSED_DURING_REBUILD -> {
                Map<String, String> generations = SaleInFlight.generations(redis, skus);
                new RedisEpoch(new LuaRunner(redis)).requestRebuild();
                // The rebuild is running once it holds a SKU of the sale closed (its lock, for the settle).
                long closed = once(() -> skus.stream()
                        .filter(sku -> redis.exists(new SkuKeys(sku).rebuildLock()))
                        .count());
                cluster.pauseRedisFor(REDIS_PAUSE_IN_REBUILD);
                yield new Strike(System.nanoTime(), () -> new Landing(
                        closed > 0 ? SaleInFlight.bucketsRebuilt(redis, skus, generations) : 0,
                        "sale buckets rebuilt by a rebuild that held " + closed + " of the sale's SKUs closed when"
                                + " Redis stalled"));
            }
            case RECONCILER_PAUSED -> {
                long open = once(() -> SaleInFlight.openReservations(redis, skus));
                cluster.pauseFor("reconciler", RECONCILER_PAUSE);
                yield now(open, "reservations open when the reconciler stopped");
            }
            case REDIS_PRIMARY_KILLED -> {
                long open = once(() -> SaleInFlight.openReservations(redis, skus));
                cluster.killRedisPrimaryAndAwaitPromotion(skus.get(0));
                yield now(open, "reservations open when the primary died");
            }
            case BUCKETED_PRIMARY_KILLED -> {
                long transfers = once(() -> SaleInFlight.transfers(redis, skus));
                cluster.killRedisPrimaryAndAwaitPromotion(skus.get(0));
                yield now(transfers, "transfers between the sale's buckets made or on their way when the primary died");
            }
            case KAFKA_BROKER_KILLED, KAFKA_CONTROLLER_KILLED -> {
                long led = kafkaVictim.map(FaultCluster.KafkaNode::ledPartitions).orElse(0L);
                yield new Strike(killKafkaNode(), () -> new Landing(led, "partitions the killed node led"));
            }
        };
    }

    /**
     * What the fault is about to meet, once there is some: the moment of a row is a state of the sale (orders in
     * flight, units moving between buckets), not only a share of its buyers answered. Waits at most {@link
     * #STATE_WAIT}; a sale that never gets there is struck anyway, and its row shows the fault did not land.
     */
    private static long once(LongSupplier count) throws InterruptedException {
        long deadline = System.nanoTime() + STATE_WAIT.toNanos();
        long seen = count.getAsLong();
        while (seen == 0 && System.nanoTime() < deadline) {
            Thread.sleep(STATE_POLL.toMillis());
            seen = count.getAsLong();
        }
        return seen;
    }

    /** What strikes a service. */
    @FunctionalInterface
    private interface ServiceStrike {
        void on(String service) throws IOException, InterruptedException;
    }

    /**
     * Strikes the stream-processor that owns the most of the sale's partitions: the other may own none of them, and a
     * strike on it would test nothing. None owning any is a fault that cannot land.
     */
    private Strike strikeOwner(List<Long> skus, String struck, ServiceStrike strike) throws Exception {
        FaultCluster.StreamsOwner owner = cluster.streamProcessorOwning(skus);
        if (owner.salePartitions() > 0) {
            strike.on(owner.service());
        }
        return now(owner.salePartitions(), "of the sale's partitions owned by " + owner.service() + ", " + struck);
    }

    /**
     * The reservations of the struck ingress's own buyers fenced off before their order was recorded: caught between
     * reserve and commit when it was struck. Fences of the other ingress's buyers (its own outbox wait running out
     * while MySQL stood still) say nothing of the strike, and are not counted.
     */
    private Landing caughtOnStruckIngress(List<Long> skus) {
        long caught = SaleInFlight.fencedBuyers(db(), skus).stream()
                .filter(buyer -> Buyers.ingressOf(buyer, cluster.ingresses().size()) == STRUCK_INGRESS)
                .count();
        return new Landing(caught, "reservations of ingress-a's buyers caught between reserve and commit, fenced");
    }

    /** Whether MySQL answers a query within {@code bound}. */
    private boolean answersWithin(Duration bound) throws InterruptedException {
        CompletableFuture<Void> probe = CompletableFuture.runAsync(() -> db().selectOne().fetch());
        try {
            probe.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException noAnswer) {
            return false;
        } catch (ExecutionException failed) {
            // Refused or broken, as a stalled server's connection may be: no answer either.
            return false;
        }
    }

    /** Repaired now, having met {@code count} of {@code what} at the strike. */
    private static Strike now(long count, String what) {
        return new Strike(System.nanoTime(), () -> new Landing(count, what));
    }

    private DSLContext db() {
        return cluster.database().dsl();
    }

    /** FLUSHALL and DBSIZE in one transaction: the keys left the moment after, which no client could write between. */
    private static long flushAllAndCount(UnifiedJedis redis) {
        try (AbstractTransaction flush = redis.multi()) {
            flush.sendCommand(Protocol.Command.FLUSHALL, new String[0]);
            Response<Object> left = flush.sendCommand(Protocol.Command.DBSIZE, new String[0]);
            flush.exec();
            return (Long) left.get();
        }
    }

    /** Orders of the sale with more than one record on order-requests: re-sent by the relay (or a retry). */
    private long sentAgain(List<Long> skus) throws Exception {
        Set<String> keys = skus.stream().map(SkuKey::of).collect(Collectors.toSet());
        Map<String, Long> recordsByOrder = readAll(Topic.ORDER_REQUESTS.topicName()).stream()
                .filter(record -> keys.contains(record.key()))
                .map(record -> orderId(record.value()))
                .collect(Collectors.groupingBy(orderId -> orderId, Collectors.counting()));
        return recordsByOrder.values().stream().filter(records -> records > 1).count();
    }

    private static String orderId(byte[] request) {
        try {
            return JSON.readTree(request).path("orderId").asText("");
        } catch (IOException notJson) {
            return "";
        }
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
    private interface IngressStrike {
        void run() throws IOException, InterruptedException;
    }

    /**
     * MySQL stalled for a moment first, so ingress-a's winners wait between the reserve and the outbox commit;
     * {@code strike} hits the ingress then, and MySQL moves again.
     * @return when the strike happened ({@link System#nanoTime()})
     */
    private long whileWinnersWaitOnMysql(IngressStrike strike) throws IOException, InterruptedException {
        cluster.pauseMysql();
        Thread.sleep(1_500);
        strike.run();
        long struck = System.nanoTime();
        cluster.resumeMysql();
        return struck;
    }

    /**
     * Every order of the sale on order-requests so far, sent {@code times} more times, byte for byte.
     * @return the records the broker acknowledged
     */
    private long republish(List<Long> skus, int times) throws Exception {
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
            return acks.size();
        }
    }

    /** @return the poison records the broker acknowledged */
    private long poison(List<Long> skus) throws Exception {
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
            return acks.size();
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
