package io.seckill.reconciler;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaAccess;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.DeadLetteredOrders;
import io.seckill.mysqlstate.DeadLetters;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.RelayedRows;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.EvictionPolicy;
import io.seckill.redisstate.RedisRelease;
import io.seckill.redisstate.RedisMemory;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.ConsumerGroupLag;
import io.seckill.runtime.ConsumerLoop;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
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

    static final String STAGE = "reconciler";
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

    private Reconciler(Database database, UnifiedJedis redis, KafkaProducer<String, byte[]> producer, Admin admin, Admin repairAdmin,
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
            Database database = opened.add(Database.connect(config.infra(), "reconciler", config.poolSize(), host.meters()));
            UnifiedJedis redis = opened.add(RedisConnections.open(config.infra().redis(), config.redisPoolSize()));
            EvictionPolicy.check(redis);
            RedisRelease.check(redis, config.mode());
            KafkaProducer<String, byte[]> producer = opened.add(new KafkaProducer<>(KafkaClients.producer(kafka, "reconciler-producer")),
                    p -> p.close(KAFKA_CLOSE));
            opened.add(new KafkaClientMetrics(producer)).bindTo(host.meters());
            Admin admin = opened.add(Admin.create(KafkaClients.admin(kafka)), a -> a.close(KAFKA_CLOSE));
            Admin repairAdmin = opened.add(Admin.create(KafkaClients.admin(config.repairKafka())), a -> a.close(KAFKA_CLOSE));
            Reconciler reconciler = new Reconciler(database, redis, producer, admin, repairAdmin, opened);
            reconciler.startParts(config, host);
            LOG.info("reconciler started: {} jobs, relay grace {}, drift check every {}", reconciler.jobs.size(),
                    config.relayBackoff().grace(), config.driftCheckInterval());
            return reconciler;
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    private void startParts(ReconcilerConfig config, ServiceHost host) {
        KafkaAccess kafka = config.infra().kafka();
        Clock clock = host.clock();
        host.readiness().reachable("mysql", database::ping);
        host.readiness().reachable("redis", redis::ping);
        BrokerCheck.addTo(host.readiness(), admin);
        ReconcilerMetrics metrics = new ReconcilerMetrics(host.meters(), clock);
        LuaRunner lua = new LuaRunner(redis);
        SaleStore saleStore = new SaleStore(lua);
        OrderStatusStore statuses = new OrderStatusStore(lua, config.orderStatusTtl());
        OutboxLookups outboxRows = new OutboxLookups();
        OrderEvents orderEvents = new OrderEvents();
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(producer, STAGE);
        UnsupportedRecords unsupported = new UnsupportedRecords(deadLetters, host.meters(), STAGE);
        ReservationSettler settler = new ReservationSettler(database.dsl(), new Orders(), saleStore, statuses, unsupported, metrics);
        DeadLetterRecorder recorder = new DeadLetterRecorder(database.dsl(), new DeadLetters(), new DeadLetteredOrders(), saleStore, statuses, clock, metrics);
        opened.add(ConsumerLoop.start("reconciler-results", consumer(kafka, "results"), Topic.ORDER_RESULTS, deadLetters,
                settler::onResults, host));
        opened.add(ConsumerLoop.start("reconciler-compensations", consumer(kafka, "compensations"), Topic.STOCK_COMPENSATIONS,
                deadLetters, settler::onCompensations, host));
        StockReturns returns = new StockReturns(database.dsl(), new Orders(), new ReturnedUnits(), RelayedRows.LIFECYCLE, saleStore, unsupported, clock, metrics);
        opened.add(ConsumerLoop.start("reconciler-lifecycle", consumer(kafka, "lifecycle"), Topic.ORDER_LIFECYCLE, deadLetters,
                returns::onEvents, host));
        opened.add(ConsumerLoop.start("reconciler-dead-letters", consumer(kafka, "dead-letters"), Topic.DEAD_LETTERS,
                deadLetters, recorder::onDeadLetters, host));

        OutboxRelay relay = new OutboxRelay(new RelaySends(database.dsl(), RelayedRows.ORDERS, producer, config.relayInterval(), clock),
                config.relayBackoff(), config.relayMaxAttempts(), config.relayBatch(), clock, metrics);
        UndeliverableOrders undeliverable = new UndeliverableOrders(database.dsl(), RelayedRows.ORDERS, new Orders(), saleStore, statuses,
                config.relayMaxAttempts(), config.relayBatch(), clock, metrics);
        jobs.every(config.relayInterval(), "outbox relay", () -> {
            int sent = relay.relayDue();
            if (sent > 0) {
                LOG.info("outbox relay re-sent {} order(s)", sent);
            }
            undeliverable.giveUp();
        });
        LifecycleRelay lifecycleRelay = new LifecycleRelay(new RelaySends(database.dsl(), RelayedRows.LIFECYCLE, producer, config.relayInterval(),
                clock), config.relayBackoff(), config.relayBatch(), clock);
        jobs.every(config.relayInterval(), "lifecycle relay", () -> {
            int sent = lifecycleRelay.relayDue();
            if (sent > 0) {
                LOG.info("lifecycle relay re-sent {} event(s)", sent);
            }
        });
        PaymentDeadlines deadlines = new PaymentDeadlines(database.dsl(), new OrderEndings(config.relayBackoff().grace()), new Orders(), producer,
                config.expiryBatch(), clock, metrics);
        jobs.every(config.expiryInterval(), "payment deadlines", () -> {
            int expired = deadlines.expireOverdue();
            if (expired > 0) {
                LOG.info("expired {} order(s) not paid by their deadline", expired);
            }
        });
        OutboxPurge purge = new OutboxPurge(database.dsl(), RelayedRows.ORDERS, RelayedRows.LIFECYCLE, config.outboxRetention(), config.relayBatch(), clock);
        jobs.every(config.outboxPurgeInterval(), "outbox purge", () -> {
            int deleted = purge.purge();
            if (deleted > 0) {
                LOG.info("outbox purge deleted {} completed row(s) older than {}", deleted, config.outboxRetention());
            }
        });
        RedisRecovery recovery = new RedisRecovery(database.dsl(), new Skus(), new SaleSnapshots(), saleStore, new RedisEpoch(lua),
                config.rebuildSettle(), metrics);
        jobs.every(config.redisWatchInterval(), "Redis state watch", recovery::rebuildIfLost);
        LeakedReservationSweep sweep = new LeakedReservationSweep(database.dsl(), new Skus(), new Orders(), new Outbox(), outboxRows, saleStore, statuses,
                config.leakSweepAfter(), clock, metrics);
        jobs.every(config.leakSweepInterval(), "leaked reservation sweep", sweep::sweep);
        PendingAdjustments adjustments = new PendingAdjustments(database.dsl(), new StockAdjustments(), saleStore, config.leakSweepInterval());
        jobs.every(config.leakSweepInterval(), "stock adjustments for Redis", adjustments::apply);
        DriftCheck drift = new DriftCheck(database.dsl(), new Skus(), outboxRows, orderEvents, new StockAdjustments(), saleStore,
                config.driftRepairAfter(), metrics);
        jobs.every(config.driftCheckInterval(), "drift check", () -> metrics.skus(drift.run()));
        HangingTransactions hanging = new HangingTransactions(repairAdmin, config.hangingTransactionAfter(), config.hangingTransactionCheckInterval(), clock, metrics);
        host.readiness().add("hanging-transactions", hanging::readiness);
        jobs.every(config.hangingTransactionCheckInterval(), "hanging transaction check", hanging::abortHanging);
        // A measurement never outlasts its interval: a silent cluster skips a round instead of stacking them.
        ConsumerGroupLag lag = new ConsumerGroupLag(admin, config.figuresInterval());
        jobs.every(config.figuresInterval(), "pipeline figures", () -> {
            metrics.outboxBacklog(outboxRows.backlog(database.dsl()));
            metrics.groupLag(lag.measure());
            metrics.redisMemory(RedisMemory.fullest(redis));
        });
    }

    private static Properties consumer(KafkaAccess kafka, String part) {
        return KafkaClients.consumer(kafka, KafkaGroups.RECONCILER_GROUP_PREFIX + part, "reconciler-" + part);
    }

    @Override
    public void close() {
        opened.close();
    }
}
