package io.seckill.ingress;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.ingress.admin.AuditDesk;
import io.seckill.ingress.admin.RedisRebuildDesk;
import io.seckill.ingress.admin.SaleDesk;
import io.seckill.ingress.admin.StockAdjustmentDesk;
import io.seckill.ingress.buying.KeyedOrders;
import io.seckill.ingress.buying.OrderDesk;
import io.seckill.ingress.buying.OrderFence;
import io.seckill.ingress.buying.OrderPublisher;
import io.seckill.ingress.buying.OutboxWriter;
import io.seckill.ingress.buying.SoldOutMemory;
import io.seckill.ingress.endings.OrderEndingDesk;
import io.seckill.ingress.endings.PaymentVerifier;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.buyeraccess.tokens.AccessTokens;
import io.seckill.ingress.identity.AdminGuard;
import io.seckill.ingress.identity.BearerTokens;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.identity.TokenRefusals;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.orders.OrderStatusDesk;
import io.seckill.ingress.pass.PassDesk;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.ingress.warmup.BuyPathWarmUp;
import io.seckill.ingress.watch.WatchDesk;
import io.seckill.ingress.watch.WatchedInstances;
import io.seckill.mysqlstate.AdminAuditLog;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.SaleDefinitions;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.redisstate.EvictionPolicy;
import io.seckill.redisstate.IdempotencyClaims;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.RedisRelease;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.SpentChallenges;
import io.seckill.runtime.ConsumerGroupLag;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/** The ingress service's composition root: its parts built in order, and closed in reverse. */
public final class IngressApi implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngressApi.class);
    private static final Duration TOPICS_TIMEOUT = Duration.ofSeconds(5);
    /** Bounded: with Kafka unreachable, unsent orders are the relay's job, not a reason to hang. */
    private static final Duration KAFKA_CLOSE = Duration.ofSeconds(5);
    /** The operator page asks once a second: a Kafka that does not answer within this shows as such, not as a hung page. */
    private static final Duration WATCH_KAFKA_WAIT = Duration.ofMillis(800);
    private static final int ADMIN_POOL_SIZE = 2;

    private final IngressRoutes routes;
    private final OpenedResources opened;
    private final BuyPathWarmUp.Outcome warmUp;

    private IngressApi(IngressRoutes routes, OpenedResources opened, BuyPathWarmUp.Outcome warmUp) {
        this.routes = routes;
        this.opened = opened;
        this.warmUp = warmUp;
    }

    /** What the buy path's warm-up did before this instance served buyers. */
    public BuyPathWarmUp.Outcome warmUp() {
        return warmUp;
    }

    /** Starts serving buyers; readiness and metrics go to the host's management port. A start that fails closes what it opened. */
    public static IngressApi start(IngressConfig config, ServiceHost host) {
        ensureTopicsIfReachable(config);
        OpenedResources opened = new OpenedResources();
        try {
            Clock clock = host.clock();
            IngressMetrics metrics = new IngressMetrics(host.meters());
            Database database = opened.add(Database.connect(config.infra(), "ingress-api", config.mysqlPoolSize(), host.meters()));
            // The bulkhead: the buyers' other routes query through a pool of their own, which fails fast when it is busy; the buy
            // path keeps the main pool.
            Database queries = opened.add(Database.connect(config.infra(), "ingress-api-queries", config.queryPool().size(), config.queryPool().connectionWait(),
                    host.meters()));
            // The admin listener's account may write stock, the buyers' may not: its few requests (which must get through an
            // incident) have a small pool of their own.
            Database adminDatabase = opened.add(Database.connect(config.adminInfra(), "ingress-api-admin", ADMIN_POOL_SIZE, host.meters()));
            UnifiedJedis redis = opened.add(RedisConnections.open(config.infra().redis(), config.redisPoolSize()));
            EvictionPolicy.check(redis);
            RedisRelease.check(redis, config.mode());
            LuaRunner lua = opened.add(config.redisPipelines() > 0 ? LuaRunner.pipelined(redis, config.redisPipelines()) : new LuaRunner(redis));
            KafkaProducer<String, byte[]> producer = opened.add(new KafkaProducer<>(producerSettings(config)), p -> p.close(KAFKA_CLOSE));
            opened.add(new KafkaClientMetrics(producer)).bindTo(host.meters());
            Admin kafkaAdmin = opened.add(Admin.create(KafkaClients.admin(config.infra().kafka())), a -> a.close(KAFKA_CLOSE));
            host.readiness().reachable("redis", redis::ping);
            host.readiness().reachable("mysql", database::ping);
            BrokerCheck.addTo(host.readiness(), kafkaAdmin);

            DSLContext dsl = database.dsl();
            DSLContext queryDsl = queries.dsl();
            DSLContext adminDsl = adminDatabase.dsl();
            SaleStore saleStore = new SaleStore(lua);
            OrderStatusStore statuses = new OrderStatusStore(lua, config.orderStatusTtl());
            AccessTokens tokens = new AccessTokens(config.auth().tokens(), clock);
            TokenRefusals refusals = TokenRefusals.of(config.rateLimits());
            BuyerIdentity identity = config.auth().identity(new BearerTokens(tokens, refusals, config.rateLimits().trustedProxies()));
            BearerTokens adminTokens = new BearerTokens(new AccessTokens(config.auth().adminTokens(), clock), refusals, config.rateLimits().trustedProxies());
            PaymentVerifier payments = config.paymentVerifier();
            Outbox outboxTable = new Outbox();
            OutboxLookups outboxRows = new OutboxLookups();
            Orders orders = new Orders();
            KnownSkus knownSkus = new KnownSkus(dsl, new Skus());
            IdempotentReplies idempotent = new IdempotentReplies(new IdempotencyClaims(lua, config.idempotencyTtl(),
                    IdempotentReplies.claimTtl(config.outboxWait().plus(OrderFence.WAIT))));
            OutboxWriter outbox = opened.add(new OutboxWriter(dsl, outboxTable, statuses, config.relayGrace(), config.outboxWait(),
                    config.outboxWriters(), metrics));
            OrderFence fence = opened.add(new OrderFence(dsl, outboxTable, saleStore, statuses, clock));
            SalePasses passes = new SalePasses(config.passes().key());
            RateLimitCounters rateLimitCounters = new RateLimitCounters(lua);
            RateLimiter rateLimiter = new RateLimiter(rateLimitCounters, config.rateLimits(), metrics);
            SoldOutMemory soldOut = new SoldOutMemory(config.soldOutMemory(), System::nanoTime);
            OrderPublisher publisher = new OrderPublisher(producer);
            BuyDesk buyDesk = new BuyDesk(saleStore, outbox, fence, new KeyedOrders(dsl, outboxTable, outboxRows, clock), knownSkus,
                    publisher, idempotent, clock);
            OrderDesk buying = buyDesk.with(identity, passes, rateLimiter, metrics, soldOut);
            IngressRoutes.Desks desks = new IngressRoutes.Desks(new AdminGuard(adminTokens),
                    new AuditDesk(adminDsl, new AdminAuditLog(), new Skus(), config.rateLimits().trustedProxies(), clock),
                    new SaleDesk(adminDsl, new Skus(), new SaleDefinitions(), orders, outboxRows, saleStore, clock),
                    new StockAdjustmentDesk(adminDsl, new StockAdjustments(), saleStore, soldOut, knownSkus, clock), new RedisRebuildDesk(new RedisEpoch(lua)),
                    buying, new PassDesk(identity, rateLimiter, saleStore, knownSkus, config.passes().challenges(new SpentChallenges(lua)), passes,
                            config.passes(), clock),
                    new OrderStatusDesk(identity, rateLimiter, statuses, queryDsl, orders, outboxRows),
                    new OrderEndingDesk(identity, rateLimiter, queryDsl, orders, outboxRows, new OrderEndings(Duration.ZERO), payments,
                            idempotent, clock),
                    new WatchDesk(queryDsl, new Skus(), orders, outboxRows, saleStore, new ConsumerGroupLag(kafkaAdmin, WATCH_KAFKA_WAIT),
                            new WatchedInstances(config.watchedInstances(), host.readiness()), () -> metrics.answersTo(IngressRoutes.BUY), clock));
            BuyPathWarmUp.Outcome warmUp = new BuyPathWarmUp(config.warmUp(), config.auth(), config.rateLimits(), dsl, saleStore, rateLimitCounters, outbox, publisher, clock)
                    .run((warmIdentity, warmPasses, warmLimits) -> {
                        // Counted nowhere a user looks: the warm-up's answers are in no figure of a sale.
                        IngressMetrics uncounted = new IngressMetrics(new SimpleMeterRegistry());
                        return IngressRoutes.start(desks.withBuying(buyDesk.with(warmIdentity, warmPasses,
                                new RateLimiter(rateLimitCounters, warmLimits, uncounted), uncounted,
                                new SoldOutMemory(config.soldOutMemory(), System::nanoTime))), uncounted, false, threads(config), IngressRoutes.Listeners.loopback());
                    });
            IngressRoutes routes = opened.add(IngressRoutes.start(desks, metrics, config.benchmarkMode(), threads(config),
                    new IngressRoutes.Listeners(null, config.httpPort(), config.adminHost(), config.adminPort())));
            LOG.info("ingress-api listening on http://localhost:{} (auth mode {}), admin on http://{}:{}, serving {}", routes.port(),
                    config.auth().mode(), config.adminHost(), routes.adminPort(), routes.routes());
            return new IngressApi(routes, opened, warmUp);
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    /**
     * The buy desk's parts every desk shares; who buys, the passes, the limits, the metrics and the sold-out memory are each
     * desk's own.
     */
    private record BuyDesk(SaleStore saleStore, OutboxWriter outbox, OrderFence fence, KeyedOrders keyedOrders, KnownSkus knownSkus,
                           OrderPublisher publisher, IdempotentReplies idempotent, Clock clock) {

        OrderDesk with(BuyerIdentity identity, SalePasses passes, RateLimiter rateLimiter, IngressMetrics metrics, SoldOutMemory soldOut) {
            return new OrderDesk(identity, passes, saleStore, outbox, fence, keyedOrders, knownSkus, publisher,
                    soldOut, rateLimiter, idempotent, metrics, clock);
        }
    }

    private static IngressRoutes.Threads threads(IngressConfig config) {
        return config.virtualThreads() ? IngressRoutes.Threads.VIRTUAL : IngressRoutes.Threads.PLATFORM;
    }

    private static Properties producerSettings(IngressConfig config) {
        Properties settings = KafkaClients.producer(config.infra().kafka(), "ingress-api");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) config.kafkaMaxBlock().toMillis());
        return settings;
    }

    /**
     * Buyers are served while Kafka is down (the outbox keeps every order), so the ingress starts without
     * it too; with the topics missing, every publish would wait for metadata until they exist.
     */
    private static void ensureTopicsIfReachable(IngressConfig config) {
        try {
            KafkaClients.ensureTopics(config.infra().kafka(), config.topics(), TOPICS_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warn("could not ensure the topics ({}); orders wait in the outbox until the stream-processor or Kafka is back", e.toString());
        }
    }

    public int port() {
        return routes.port();
    }

    public int adminPort() {
        return routes.adminPort();
    }

    /** "METHOD /path" of every route this instance serves. */
    public List<String> routes() {
        return routes.routes();
    }

    @Override
    public void close() {
        opened.close();
    }
}
