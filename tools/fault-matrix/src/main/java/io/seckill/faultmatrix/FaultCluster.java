package io.seckill.faultmatrix;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.mysqlstate.Database;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.IngressAdmin;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.processdriver.ServiceEnvironment;
import io.seckill.processdriver.Signals;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import io.seckill.redisstate.SaleLayout;
import io.seckill.runtime.KafkaClients;
import io.seckill.schemas.kafka.SkuKey;
import io.seckill.schemas.kafka.Topic;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The system the fault matrix breaks: development servers and one process per service (two ingresses, so buyers keep a
 * door while one is down, and two stream-processors), topics of 12 partitions, each started by {@code bin/seckill},
 * plus the matrix's own clients of MySQL and Redis to judge the outcome. Settings shorten the reconciler's periods so
 * that what it repairs is repaired within the matrix's bound. A supervisor starts again any service that ended on its
 * own, as compose's {@code restart: on-failure} or systemd would (a service that cannot continue exits for exactly
 * that), and counts it.
 */
final class FaultCluster implements AutoCloseable {

    static final String TOKEN_SECRET = "fault-matrix-token-secret-0123456789abcdef";
    /** An admin's token for the whole run (the longest run takes well under the maximum lifetime). */
    private static final String ADMIN_TOKEN_SECRET = "fault-matrix-admin-token-secret-0123456789abcdef";
    private static final TokenMinter ADMIN_TOKENS = TokenMinter.developmentAdmin(ADMIN_TOKEN_SECRET);
    /**
     * Two of the stream-processor, so a stalled broker finds the gate's tasks spread over processes, as in production.
     */
    static final List<String> SERVICES =
            List.of("stream-processor-a", "stream-processor-b", "db-sink", "reconciler", "ingress-a", "ingress-b");
    /** The partitions of every topic: as many as a production catalogue has by default. */
    private static final int PARTITIONS = 12;
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern PROCESS_ID = Pattern.compile("process_id:(\\d+)");
    /** The stream-processors' application id (docs/configuration.md's default, which the cluster keeps). */
    private static final String STREAMS_APPLICATION_ID = "seckill-stream-processor";
    /** The lock file of a stream-processor's state directory slot, {@code instance-N.lock}. */
    private static final Pattern STATE_LOCK = Pattern.compile("(instance-\\d+)\\.lock");
    private static final Pattern PROCESS_UUID = Pattern.compile("\"processId\"\\s*:\\s*\"([0-9a-f-]+)\"");

    private final DevelopmentServers servers;
    private final ServiceEnvironment environment;
    private final Map<String, SeckillProcess> services = new ConcurrentHashMap<>();
    private final Set<String> heldDown = ConcurrentHashMap.newKeySet();
    private final Queue<String> restarted = new ConcurrentLinkedQueue<>();
    private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "fault-matrix-supervisor");
        thread.setDaemon(true);
        return thread;
    });
    private Database database;
    private UnifiedJedis redis;

    private FaultCluster(DevelopmentServers servers, ServiceEnvironment environment) {
        this.servers = servers;
        this.environment = environment;
    }

    /**
     * @param settings the services' settings over the cluster's own (docs/configuration.md)
     * @param kind the servers to start beneath them
     */
    static FaultCluster start(
            Path repository, Path work, String javaOptions, Map<String, String> settings, Servers kind)
            throws InterruptedException {
        Map<String, String> serverSettings = new HashMap<>(kind.settings());
        serverSettings.put("JAVA_OPTS", "-Xmx768m -XX:+UseSerialGC");
        DevelopmentServers servers =
                DevelopmentServers.start(repository, work.resolve("data"), work.resolve("logs"), serverSettings);
        ServiceEnvironment environment = ServiceEnvironment.withJavaOptions(javaOptions)
                .tokenSecrets(TOKEN_SECRET, ADMIN_TOKEN_SECRET)
                .topicPartitions(PARTITIONS)
                .quickRepairs()
                // A short warm-up: a restarted ingress warms up as in production, in a fraction of a row's bound.
                .setting("SECKILL_INGRESS_WARMUP_REQUESTS", "100")
                .settings(settings);
        FaultCluster cluster = new FaultCluster(servers, environment);
        try {
            cluster.connect();
            for (String service : SERVICES) {
                cluster.launch(service);
            }
            for (String service : SERVICES) {
                cluster.awaitReady(service);
            }
            var _ = cluster.supervisor.scheduleWithFixedDelay(cluster::restartEnded, 1, 1, TimeUnit.SECONDS);
            return cluster;
        } catch (RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
    }

    private void connect() {
        InfraAddresses infra = InfraAddresses.ofMigrationAccount(new Env(servers.settings()));
        database = Database.connect(infra, "fault-matrix", 4, new SimpleMeterRegistry());
        redis = RedisConnections.open(infra.redis(), 8);
    }

    Database database() {
        return database;
    }

    UnifiedJedis redis() {
        return redis;
    }

    /** The brokers, as the operator: the nemesis writes what no service may. */
    KafkaAccess kafka() {
        return InfraAddresses.ofMigrationAccount(new Env(servers.settings())).kafka();
    }

    /**
     * The admin API of ingress {@code index} of {@link #ingresses()}, with an admin's token minted now (a run outlasts
     * one).
     */
    IngressAdmin admin(int index) {
        return new IngressAdmin(services.get(List.of("ingress-a", "ingress-b").get(index)).adminUri(),
                ADMIN_TOKENS.admin("fault-matrix", TokenSettings.DEFAULT_ADMIN_MAX_LIFETIME));
    }

    List<URI> ingresses() {
        return Stream.of("ingress-a", "ingress-b")
                .map(name -> URI.create(
                        "http://localhost:" + services.get(name).buyersPort().orElseThrow()))
                .toList();
    }

    /** kill -9 of a service's process; the supervisor leaves it down until {@link #restart}. */
    void kill(String service) throws InterruptedException {
        heldDown.add(service);
        services.get(service).kill();
    }

    /** Starts a killed service again and waits until it is ready. */
    void restart(String service) throws InterruptedException {
        launch(service);
        heldDown.remove(service);
        awaitReady(service);
    }

    /** SIGSTOP of a service's process: it holds whatever it held, its clients and the broker see it go quiet. */
    void pause(String service) throws IOException, InterruptedException {
        services.get(service).pause();
    }

    void resume(String service) throws IOException, InterruptedException {
        services.get(service).resume();
    }

    /** kill -9 of a service, started again {@code after} that and waited for until ready. */
    void killFor(String service, Duration after) throws InterruptedException {
        kill(service);
        Thread.sleep(after.toMillis());
        restart(service);
    }

    /** SIGSTOP of a service for {@code length}, then SIGCONT. */
    void pauseFor(String service, Duration length) throws IOException, InterruptedException {
        pause(service);
        Thread.sleep(length.toMillis());
        resume(service);
    }

    void pauseKafkaFor(Duration length) throws IOException, InterruptedException {
        pauseKafka();
        Thread.sleep(length.toMillis());
        resumeKafka();
    }

    void pauseMysqlFor(Duration length) throws IOException, InterruptedException {
        pauseMysql();
        Thread.sleep(length.toMillis());
        resumeMysql();
    }

    void pauseRedisFor(Duration length) throws IOException, InterruptedException {
        pauseRedis();
        Thread.sleep(length.toMillis());
        resumeRedis();
    }

    /** Services the supervisor started again because they ended on their own, so far. */
    int supervisorRestarts() {
        return restarted.size();
    }

    /** What the supervisor started again since its {@code from}-th restart: each service with its exit status. */
    List<String> supervisorRestartsSince(int from) {
        List<String> all = List.copyOf(restarted);
        return all.subList(Math.min(from, all.size()), all.size());
    }

    private void restartEnded() {
        for (String service : SERVICES) {
            SeckillProcess process = services.get(service);
            if (!heldDown.contains(service) && !process.alive()) {
                int status = process.exitCode().orElse(-1);
                System.out.println("supervisor: " + service + " ended with status " + status + "; starting it again");
                restarted.add(service + " (exit status " + status + ")");
                launch(service);
            }
        }
    }

    /** SIGSTOP of the servers' JVM: Kafka stops answering (MySQL and Redis are processes of their own and go on). */
    void pauseKafka() throws IOException, InterruptedException {
        servers.process().pause();
    }

    void resumeKafka() throws IOException, InterruptedException {
        servers.process().resume();
    }

    void pauseMysql() throws IOException, InterruptedException {
        Signals.send(mysqlPid(), "STOP");
    }

    void resumeMysql() throws IOException, InterruptedException {
        Signals.send(mysqlPid(), "CONT");
    }

    /**
     * kill -9 of mysqld; returns once the servers have started it again on its data ({@code MariaDbWatchdog}).
     * Kafka and Redis go on meanwhile.
     */
    void killMysqlAndAwaitItsRestart() throws IOException, InterruptedException {
        long killed = mysqlPid();
        Signals.send(killed, "KILL");
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (!restarted(killed)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("mysqld was not started again within " + READY_TIMEOUT);
            }
            Thread.sleep(250);
        }
    }

    private boolean restarted(long killed) {
        try {
            long pid = mysqlPid();
            return pid != killed && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            // The new server is writing its pid file.
            return false;
        }
    }

    /**
     * kill -9 of the servers' JVM (the broker dies with it), then {@code bin/seckill servers} again:
     * MySQL and Redis are stopped and started again on their data, the broker on its log.
     * @param redisLosesItsData Redis is killed too and its files deleted: it comes back empty
     */
    void killServersAndStartAgain(boolean redisLosesItsData) throws InterruptedException {
        redis.close();
        database.close();
        Path redisData = servers.dataDirectory().resolve("redis");
        servers.killAndStartAgain(() -> {
            if (redisLosesItsData) {
                Signals.send(redisPid(), "KILL");
                try (Stream<Path> files = Files.walk(redisData)) {
                    for (Path file : files.sorted(Comparator.reverseOrder())
                            .filter(path -> !path.equals(redisData))
                            .toList()) {
                        Files.delete(file);
                    }
                }
            }
        });
        connect();
    }

    /**
     * kill -9 of a Redis Cluster primary holding {@code skuId}'s keys (its layout's, when that one still has a replica
     * to take over: an earlier row's victim is not started again, so the replica promoted then has none); returns once
     * a replica serves the victim's slots in its place.
     * @return when the replica was seen promoted ({@link System#nanoTime()}): the repair
     */
    long killRedisPrimaryAndAwaitPromotion(long skuId) throws InterruptedException {
        SaleLayout layout = SaleAtRest.saleStore(this).layout(skuId);
        RedisPrimaries.Primary victim = RedisPrimaries.of(redis).stream()
                .filter(primary -> primary.serves(layout))
                .filter(FaultCluster::hasReplica)
                .min(Comparator.comparing(primary -> !primary.serves(skuId)))
                .orElseThrow(
                        () -> new IllegalStateException("no primary with a replica holds SKU " + skuId + "'s keys"));
        Matcher pid = PROCESS_ID.matcher(victim.info("server"));
        if (!pid.find()) {
            throw new IllegalStateException("Redis " + victim + " reports no process_id");
        }
        ProcessHandle.of(Long.parseLong(pid.group(1))).orElseThrow().destroyForcibly();
        System.out.println("killed Redis primary " + victim + " (pid " + pid.group(1) + ")");
        Instant deadline = Instant.now().plus(PROMOTION_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            Optional<RedisPrimaries.Primary> serving = primaryServingSlot(victim.firstSlot());
            if (serving.isPresent() && !serving.get().address().equals(victim.address())) {
                System.out.println("Redis replica " + serving.get() + " promoted in its place");
                return System.nanoTime();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "no replica took over from Redis primary " + victim + " within " + PROMOTION_TIMEOUT);
    }

    private static boolean hasReplica(RedisPrimaries.Primary primary) {
        return !primary.info("replication").contains("connected_slaves:0");
    }

    private Optional<RedisPrimaries.Primary> primaryServingSlot(int slot) {
        try {
            return RedisPrimaries.of(redis).stream().filter(primary -> primary.servesSlot(slot)).findFirst();
        } catch (JedisException notNow) {
            return Optional.empty();
        }
    }

    /** A stream-processor and how many of a sale's partitions of order-requests it owned when asked. */
    record StreamsOwner(String service, long salePartitions) {
    }

    /**
     * The stream-processor that owns the most of {@code skus}' partitions of order-requests now, read from outside it:
     * each process's Kafka Streams process id from the state directory it holds locked ({@code /proc/PID/fd}), and
     * each process's partitions from its consumer group's assignment on the broker.
     */
    StreamsOwner streamProcessorOwning(List<Long> skus) throws Exception {
        Set<Integer> salePartitions = skus.stream()
                .map(sku -> Utils.toPositive(Utils.murmur2(SkuKey.of(sku).getBytes(StandardCharsets.UTF_8)))
                        % PARTITIONS)
                .collect(Collectors.toSet());
        Map<String, Long> ownedByProcessId = new HashMap<>();
        try (Admin admin = Admin.create(KafkaClients.admin(kafka()))) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(STREAMS_APPLICATION_ID))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(STREAMS_APPLICATION_ID);
            for (MemberDescription member : group.members()) {
                long owned = member.assignment().topicPartitions().stream()
                        .filter(partition -> partition.topic().equals(Topic.ORDER_REQUESTS.topicName()))
                        .filter(partition -> salePartitions.contains(partition.partition()))
                        .count();
                ownedByProcessId.merge(member.clientId(), owned, Long::sum);
            }
        }
        StreamsOwner owner = new StreamsOwner("none", 0);
        for (String service : SERVICES) {
            if (service.startsWith("stream-processor")) {
                String processId = streamsProcessId(service);
                long owned = ownedByProcessId.entrySet().stream()
                        .filter(member -> member.getKey().contains(processId))
                        .mapToLong(Map.Entry::getValue)
                        .sum();
                if (owned > owner.salePartitions()) {
                    owner = new StreamsOwner(service, owned);
                }
            }
        }
        return owner;
    }

    /** The Kafka Streams process id of a stream-processor: in the state directory whose lock its process holds. */
    private String streamsProcessId(String service) throws IOException {
        Path descriptorsOfProcess = Path.of("/proc", Long.toString(services.get(service).pid()), "fd");
        try (Stream<Path> descriptors = Files.list(descriptorsOfProcess)) {
            for (Path descriptor : descriptors.toList()) {
                Path target;
                try {
                    target = Files.readSymbolicLink(descriptor);
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                Matcher lock = STATE_LOCK.matcher(target.getFileName().toString());
                if (lock.matches()) {
                    Path metadata = target.resolveSibling(lock.group(1))
                            .resolve(STREAMS_APPLICATION_ID)
                            .resolve("kafka-streams-process-metadata");
                    Matcher id = PROCESS_UUID.matcher(Files.readString(metadata));
                    if (id.find()) {
                        return id.group(1);
                    }
                }
            }
        }
        throw new IllegalStateException(service + " holds no Kafka Streams state directory with a process id");
    }

    /**
     * A node of the three-broker Kafka cluster, as found before a fault strikes it.
     * @param ledPartitions the partitions it led then, the internal ones too: the ones its death moves
     */
    record KafkaNode(int id, long pid, boolean activeController, long ledPartitions) {
    }

    /**
     * The active controller of the three-broker Kafka cluster (the metadata quorum's leader), or the first node that is
     * not. Found ahead of the fault: on a busy machine the lookup alone takes seconds, and the fault must strike at its
     * moment.
     * @throws IllegalStateException when the node leads no partition: killing it would test no failover
     */
    KafkaNode kafkaNode(boolean activeController) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(kafka()))) {
            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
            int leader = quorum.leaderId();
            int node = activeController
                    ? leader
                    : quorum.voters().stream()
                            .mapToInt(QuorumInfo.ReplicaState::replicaId)
                            .filter(id -> id != leader)
                            .min()
                            .orElseThrow();
            long led = partitions(admin).stream()
                    .filter(partition ->
                            partition.leader() != null && partition.leader().id() == node)
                    .count();
            if (led == 0) {
                throw new IllegalStateException(
                        "Kafka node " + node + " leads no partition: its death would move none");
            }
            return new KafkaNode(node, Signals.pidIn(kafkaNodePidFile(node)), node == leader, led);
        }
    }

    /** kill -9 of {@code node}: the servers start it again a second later. */
    void kill(KafkaNode node) throws IOException, InterruptedException {
        Signals.send(node.pid(), "KILL");
        System.out.println(
                "killed Kafka node " + node.id() + (node.activeController() ? " (the active controller)" : "")
                        + ", leader of " + node.ledPartitions() + " partitions, pid " + node.pid());
    }

    /**
     * Waits until the cluster has failed over from the killed {@code node}: it is fenced, and every partition (the
     * coordinators' internal ones too) has a leader again, none of them {@code node}. This is the repair of a broker's
     * death, as a replica's promotion is of a Redis primary's: from here, every partition can decide again.
     * @return when that was seen ({@link System#nanoTime()})
     * @throws IllegalStateException when it did not happen within {@code bound} of the call
     */
    long awaitKafkaFailover(int node, Duration bound) throws InterruptedException {
        List<String> stillLed = new ArrayList<>();
        return untilKafka(bound, 100, admin -> {
                    stillLed.clear();
                    topics(admin)
                            .values()
                            .forEach(topic -> topic.partitions().stream()
                                    .filter(partition -> partition.leader() == null
                                            || partition.leader().id() < 0
                                            || partition.leader().id() == node)
                                    .forEach(partition -> stillLed.add(topic.name() + "-" + partition.partition())));
                    return stillLed.isEmpty() ? Optional.of(System.nanoTime()) : Optional.empty();
                })
                .orElseThrow(() -> new IllegalStateException("Kafka did not fail over from node " + node + " within "
                        + bound + ": still led by it or by none: " + stillLed));
    }

    /**
     * Waits until the cluster has noticed that {@code node} died (it left some partition's in-sync replicas) and then
     * until it is registered again and back in the in-sync replicas of every partition. Right after a kill the dead
     * node still counts as in sync, until its session times out: the first half keeps that from passing for its return.
     */
    void awaitKafkaNodeBack(int node) throws InterruptedException {
        AtomicBoolean missed = new AtomicBoolean();
        Optional<Boolean> back = untilKafka(READY_TIMEOUT, 200, admin -> {
            List<TopicPartitionInfo> partitions = partitions(admin);
            if (!missed.get()) {
                missed.set(partitions.stream()
                        .anyMatch(partition -> partition.isr().stream().noneMatch(replica -> replica.id() == node)));
                return Optional.empty();
            }
            boolean inSync = partitions.stream()
                            .allMatch(partition -> partition.isr().size()
                                    == partition.replicas().size())
                    && admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                            .anyMatch(broker -> broker.id() == node);
            return inSync ? Optional.of(true) : Optional.empty();
        });
        if (back.isEmpty()) {
            throw new IllegalStateException(
                    "Kafka node " + node + (missed.get() ? " not back in sync" : " never left the in-sync replicas")
                            + " within " + READY_TIMEOUT);
        }
        System.out.println("Kafka node " + node + " is back in every partition's in-sync replicas");
    }

    /**
     * Moves every partition's leadership back to its preferred replica, as the brokers' own rebalance does only minutes
     * later ({@code leader.imbalance.check.interval.seconds}): a node started again after a kill leads nothing, and a
     * later row's kill of it would move no partition.
     */
    void electPreferredKafkaLeaders() throws InterruptedException {
        Optional<Boolean> balanced = untilKafka(READY_TIMEOUT, 200, admin -> {
            if (partitions(admin).stream().allMatch(partition -> partition.leader() != null
                    && partition.leader().id() == partition.replicas().getFirst().id())) {
                return Optional.of(true);
            }
            var _ = admin.electLeaders(ElectionType.PREFERRED, null).partitions().get(10, TimeUnit.SECONDS);
            return Optional.empty();
        });
        if (balanced.isEmpty()) {
            throw new IllegalStateException(
                    "Kafka's partitions not led by their preferred replicas again within " + READY_TIMEOUT);
        }
    }

    /** One look at the Kafka cluster: a value once what is waited for holds, empty until then. */
    @FunctionalInterface
    private interface KafkaCheck<T> {
        Optional<T> look(Admin admin) throws ExecutionException, TimeoutException, InterruptedException;
    }

    /**
     * Looks at the cluster every {@code pauseMillis} until {@code check} gives a value, through one admin client; a
     * look that fails (a request to a dead node, the quorum electing, an election refused for now) counts as not yet.
     * @return the value, empty when {@code bound} passed without one
     */
    private <T> Optional<T> untilKafka(Duration bound, long pauseMillis, KafkaCheck<T> check)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(bound);
        try (Admin admin = Admin.create(KafkaClients.admin(kafka()))) {
            while (Instant.now().isBefore(deadline)) {
                try {
                    Optional<T> value = check.look(admin);
                    if (value.isPresent()) {
                        return value;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    // looked again below
                }
                Thread.sleep(pauseMillis);
            }
        }
        return Optional.empty();
    }

    /** Every topic of the cluster, the coordinators' internal ones too, as the controller last described them. */
    private static Map<String, TopicDescription> topics(Admin admin)
            throws ExecutionException, TimeoutException, InterruptedException {
        return admin.describeTopics(admin.listTopics(new ListTopicsOptions().listInternal(true))
                        .names()
                        .get(5, TimeUnit.SECONDS))
                .allTopicNames()
                .get(5, TimeUnit.SECONDS);
    }

    private static List<TopicPartitionInfo> partitions(Admin admin)
            throws ExecutionException, TimeoutException, InterruptedException {
        return topics(admin).values().stream().flatMap(topic -> topic.partitions().stream()).toList();
    }

    private Path kafkaNodePidFile(int node) {
        return servers.dataDirectory().resolve("kafka-cluster/node-" + node + "/kafka.pid");
    }

    /** SIGSTOP of redis-server: every reservation, settlement and repair script waits. */
    void pauseRedis() throws IOException, InterruptedException {
        Signals.send(redisPid(), "STOP");
    }

    void resumeRedis() throws IOException, InterruptedException {
        Signals.send(redisPid(), "CONT");
    }

    private long redisPid() throws IOException {
        return Signals.pidIn(servers.dataDirectory().resolve("redis/redis.pid"));
    }

    private long mysqlPid() throws IOException {
        return Signals.pidIn(servers.dataDirectory().resolve("mariadb/mariadbd.pid"));
    }

    /** Every service ready again (after a fault of the servers), within the bound. */
    void awaitAllReady() throws InterruptedException {
        for (String service : SERVICES) {
            awaitReady(service);
        }
    }

    private void launch(String service) {
        String command = service.startsWith("ingress")
                ? "ingress-api"
                : service.startsWith("stream-processor") ? "stream-processor" : service;
        services.put(service, servers.service(service + "-" + Instant.now().toEpochMilli(), command, environment));
    }

    /** Waits for the service (as the supervisor may have started it again) to be ready. */
    private void awaitReady(String service) throws InterruptedException {
        SeckillProcess.awaitReady(() -> services.get(service), READY_TIMEOUT);
    }

    @Override
    public void close() {
        supervisor.shutdownNow();
        for (SeckillProcess process : services.values()) {
            process.stopOrKill(Duration.ofSeconds(30));
        }
        if (redis != null) {
            redis.close();
        }
        if (database != null) {
            database.close();
        }
        servers.close();
    }
}
