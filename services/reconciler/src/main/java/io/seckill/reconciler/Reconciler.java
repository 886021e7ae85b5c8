package io.seckill.reconciler;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaGroups;
import io.seckill.mysqlstate.Database;
import io.seckill.reconciler.figures.PipelineFigures;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.reconciler.jobs.ScheduledJobs;
import io.seckill.reconciler.lifecycle.PaymentDeadlines;
import io.seckill.reconciler.lifecycle.StockReturns;
import io.seckill.reconciler.relay.LifecycleRelay;
import io.seckill.reconciler.relay.OutboxPurge;
import io.seckill.reconciler.relay.OutboxRelay;
import io.seckill.reconciler.relay.RelaySettings;
import io.seckill.reconciler.repair.DriftCheck;
import io.seckill.reconciler.repair.HangingTransactions;
import io.seckill.reconciler.repair.LeakedReservationSweep;
import io.seckill.reconciler.repair.PendingAdjustments;
import io.seckill.reconciler.repair.RedisRecovery;
import io.seckill.reconciler.repair.RepairSettings;
import io.seckill.reconciler.settle.DeadLetterRecorder;
import io.seckill.reconciler.settle.ReservationSettler;
import io.seckill.redisstate.EvictionPolicy;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisRelease;
import io.seckill.runtime.ConsumerLoop;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The reconciler process: outbox relays (orders, lifecycle events), result and compensation settlement,
 * dead letters, the sweep of leaked reservations, payment deadlines and the units they give back, drift check.
 */
public final class Reconciler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

    /** Bounded: stopped during a broker outage, the process must still end within its grace period. */
    private static final Duration KAFKA_CLOSE = Duration.ofSeconds(5);

    private final Database database;
    private final UnifiedJedis redis;
    private final KafkaProducer<String, byte[]> producer;
    private final Admin admin;
    /** The hanging-transaction repair's own client, under its own principal: the one job with a cluster right. */
    private final Admin repairAdmin;
    private final OpenedResources opened;
    private final ScheduledJobs jobs;

    private Reconciler(
            Database database,
            UnifiedJedis redis,
            KafkaProducer<String, byte[]> producer,
            Admin admin,
            Admin repairAdmin,
            OpenedResources opened) {
        this.database = database;
        this.redis = redis;
        this.producer = producer;
        this.admin = admin;
        this.repairAdmin = repairAdmin;
        this.opened = opened;
        this.jobs = opened.add(new ScheduledJobs());
    }

    /** Starts every part; a start that fails closes what it opened, in reverse. */
    public static Reconciler start(ReconcilerConfig config, ServiceHost host) {
        KafkaAccess kafka = config.infra().kafka();
        KafkaClients.ensureTopics(kafka, config.topics(), KafkaClients.START_TIMEOUT);
        OpenedResources opened = new OpenedResources();
        try {
            Database database =
                    opened.add(Database.connect(config.infra(), "reconciler", config.poolSize(), host.meters()));
            UnifiedJedis redis = opened.add(RedisConnections.open(config.infra().redis(), config.redisPoolSize()));
            EvictionPolicy.check(redis);
            RedisRelease.check(redis, config.mode());
            KafkaProducer<String, byte[]> producer = opened.add(
                    new KafkaProducer<>(KafkaClients.producer(kafka, "reconciler-producer")),
                    p -> p.close(KAFKA_CLOSE));
            opened.add(new KafkaClientMetrics(producer)).bindTo(host.meters());
            Admin admin = opened.add(Admin.create(KafkaClients.admin(kafka)), a -> a.close(KAFKA_CLOSE));
            Admin repairAdmin =
                    opened.add(Admin.create(KafkaClients.admin(config.repairKafka())), a -> a.close(KAFKA_CLOSE));
            Reconciler reconciler = new Reconciler(database, redis, producer, admin, repairAdmin, opened);
            reconciler.startParts(config, host);
            LOG.info("reconciler started: {} jobs, relay grace {}, drift check every {}", reconciler.jobs.size(),
                    config.relay().backoff().grace(), config.repair().driftCheckInterval());
            return reconciler;
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    private void startParts(ReconcilerConfig config, ServiceHost host) {
        host.readiness().reachable("mysql", database::ping);
        host.readiness().reachable("redis", redis::ping);
        BrokerCheck.addTo(host.readiness(), admin);
        ReconcilerParts parts = ReconcilerParts.of(database.dsl(), redis, config.orderStatusTtl(), producer, admin,
                repairAdmin, host);
        ReservationSettler settler = ReservationSettler.of(parts);
        consume("results", Topic.ORDER_RESULTS, settler::onResults, parts, config, host);
        consume("compensations", Topic.STOCK_COMPENSATIONS, settler::onCompensations, parts, config, host);
        consume("lifecycle", Topic.ORDER_LIFECYCLE, StockReturns.of(parts)::onEvents, parts, config, host);
        consume("dead-letters", Topic.DEAD_LETTERS, DeadLetterRecorder.of(parts)::onDeadLetters, parts, config, host);
        HangingTransactions hanging = HangingTransactions.of(parts, config.repair());
        host.readiness().add("hanging-transactions", hanging::readiness);
        RelaySettings relay = config.relay();
        RepairSettings repair = config.repair();
        for (Job job : List.of(OutboxRelay.job(parts, relay), LifecycleRelay.job(parts, relay),
                OutboxPurge.job(parts, relay), PaymentDeadlines.job(parts, config.lifecycle(), relay.backoff().grace()),
                RedisRecovery.job(parts, repair), LeakedReservationSweep.job(parts, repair),
                PendingAdjustments.job(parts, repair), DriftCheck.job(parts, repair), hanging.job(),
                PipelineFigures.job(parts, config.figuresInterval()))) {
            jobs.start(job);
        }
    }

    /**
     * Feeds {@code topic}'s records to {@code handler} in a consumer loop of the reconciler's group for {@code part}.
     */
    private <V> void consume(
            String part,
            Topic<V> topic,
            ConsumerLoop.BatchHandler<V> handler,
            ReconcilerParts parts,
            ReconcilerConfig config,
            ServiceHost host) {
        opened.add(ConsumerLoop.start("reconciler-" + part, consumer(config.infra().kafka(), part), topic,
                parts.deadLetters(), handler, host));
    }

    private static Properties consumer(KafkaAccess kafka, String part) {
        return KafkaClients.consumer(kafka, KafkaGroups.RECONCILER_GROUP_PREFIX + part, "reconciler-" + part);
    }

    @Override
    public void close() {
        opened.close();
    }
}
