package io.seckill.ingress;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.buyeraccess.tokens.AccessTokens;
import io.seckill.ingress.admin.AuditDesk;
import io.seckill.ingress.admin.RedisRebuildDesk;
import io.seckill.ingress.admin.SaleDesk;
import io.seckill.ingress.admin.StockAdjustmentDesk;
import io.seckill.ingress.buying.BuyPath;
import io.seckill.ingress.buying.OrderDesk;
import io.seckill.ingress.buying.OrderFence;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.identity.AdminGuard;
import io.seckill.ingress.identity.BearerTokens;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.identity.TokenRefusals;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.orders.OrderStatusDesk;
import io.seckill.ingress.orders.PayOrCancelDesk;
import io.seckill.ingress.pass.PassDesk;
import io.seckill.ingress.queue.QueueDesk;
import io.seckill.ingress.queue.SalePageDesk;
import io.seckill.ingress.rooms.RoomFigures;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.ingress.skus.SoldOutMemory;
import io.seckill.ingress.warmup.BuyPathWarmUp;
import io.seckill.ingress.watch.WatchDesk;
import io.seckill.ingress.watch.WatchedInstances;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.IdempotencyClaims;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.runtime.ConsumerGroupLag;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.management.ServiceHost;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingress service's composition root: its connections, the parts its features share, then each feature, which
 * builds its own desks and adds its own routes; closed in reverse.
 */
public final class IngressApi implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngressApi.class);
    private static final Duration TOPICS_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The operator page asks once a second: a Kafka that does not answer within this shows as such, not as a hung page.
     */
    private static final Duration WATCH_KAFKA_WAIT = Duration.ofMillis(800);

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

    /**
     * Starts serving buyers; readiness and metrics go to the host's management port. A start that fails closes what it
     * opened.
     */
    public static IngressApi start(IngressConfig config, ServiceHost host) {
        ensureTopicsIfReachable(config);
        OpenedResources opened = new OpenedResources();
        try {
            IngressConnections connections = IngressConnections.open(config, host, opened);
            TokenRefusals refusals = TokenRefusals.of(config.rateLimits());
            IngressParts parts = sharedParts(config, connections, refusals, host, opened);
            BuyPath buyPath = BuyPath.open(
                    parts,
                    connections.producer(),
                    config.relayGrace(),
                    config.outboxWait(),
                    config.outboxWriters(),
                    opened);
            List<Feature> features = features(config, parts, buyPath, connections, host);
            AdminGuard guard = new AdminGuard(new BearerTokens(
                    new AccessTokens(config.auth().adminTokens(), parts.clock()), refusals, parts.trustedProxies()));
            BuyPathWarmUp.Outcome warmUp = warmUp(config, parts, buyPath, guard);
            IngressRoutes routes = opened.add(IngressRoutes.start(
                    features,
                    guard,
                    parts.metrics(),
                    config.benchmarkMode(),
                    threads(config),
                    new IngressRoutes.Listeners(null, config.httpPort(), config.adminHost(), config.adminPort())));
            logListening(config, routes);
            return new IngressApi(routes, opened, warmUp);
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    /** Every feature of the ingress, each building its own desks from the shared parts. */
    private static List<Feature> features(
            IngressConfig config,
            IngressParts parts,
            BuyPath buyPath,
            IngressConnections connections,
            ServiceHost host) {
        return List.of(
                buyPath.desk(),
                QueueDesk.of(parts, config.queue()),
                new SalePageDesk(),
                PassDesk.of(parts, config.passes()),
                OrderStatusDesk.of(parts),
                PayOrCancelDesk.of(parts, config.paymentVerifier()),
                AuditDesk.of(parts, config.adminRefusalsAuditedPerMinute()),
                SaleDesk.of(parts),
                StockAdjustmentDesk.of(parts),
                RedisRebuildDesk.of(parts),
                WatchDesk.of(
                        parts,
                        new ConsumerGroupLag(connections.kafkaAdmin(), WATCH_KAFKA_WAIT),
                        new WatchedInstances(config.watchedInstances(), host.readiness()),
                        () -> parts.metrics().answersTo(OrderDesk.ROUTE)));
    }

    private static void logListening(IngressConfig config, IngressRoutes routes) {
        LOG.info(
                "ingress-api listening on http://localhost:{} (auth mode {}), admin on http://{}:{}, serving {}",
                routes.port(),
                config.auth().mode(),
                config.adminHost(),
                routes.adminPort(),
                routes.routes());
    }

    /** The parts every feature shares, each made once. */
    private static IngressParts sharedParts(
            IngressConfig config,
            IngressConnections connections,
            TokenRefusals refusals,
            ServiceHost host,
            OpenedResources opened) {
        Clock clock = host.clock();
        IngressMetrics metrics = new IngressMetrics(host.meters());
        SaleStore saleStore = new SaleStore(connections.lua());
        RateLimitCounters rateLimitCounters = new RateLimitCounters(connections.lua());
        WaitingRoom waitingRoom = new WaitingRoom(connections.lua());
        BuyerIdentity identity = config.auth()
                .identity(new BearerTokens(
                        new AccessTokens(config.auth().tokens(), clock),
                        refusals,
                        config.rateLimits().trustedProxies()));
        IdempotentReplies idempotent = new IdempotentReplies(new IdempotencyClaims(
                connections.lua(),
                config.idempotencyTtl(),
                IdempotentReplies.claimTtl(config.outboxWait().plus(OrderFence.WAIT))));
        KnownSkus knownSkus = new KnownSkus(connections.queries().dsl(), new Skus());
        return new IngressParts(
                connections.database().dsl(),
                connections.queries().dsl(),
                connections.admin().dsl(),
                connections.lua(),
                saleStore,
                new OrderStatusStore(connections.lua(), config.orderStatusTtl()),
                rateLimitCounters,
                identity,
                new RateLimiter(rateLimitCounters, config.rateLimits(), metrics),
                config.rateLimits().trustedProxies(),
                new SalePasses(config.passes().key()),
                waitingRoom,
                opened.add(new RoomFigures(
                        waitingRoom, knownSkus, saleStore, clock, config.queue().refresh(), host.meters())),
                new QueueTickets(config.passes().key()),
                knownSkus,
                new SoldOutMemory(config.soldOutMemory(), System::nanoTime),
                idempotent,
                new Orders(),
                new OutboxLookups(),
                new Skus(),
                metrics,
                clock);
    }

    /** Rehearses the buy path on a loopback server of the buy route alone, before buyers are served. */
    private static BuyPathWarmUp.Outcome warmUp(
            IngressConfig config, IngressParts parts, BuyPath buyPath, AdminGuard guard) {
        return new BuyPathWarmUp(
                        config.warmUp(),
                        config.auth(),
                        config.rateLimits(),
                        parts.dsl(),
                        parts.saleStore(),
                        parts.rateLimitCounters(),
                        buyPath.outbox(),
                        buyPath.publisher(),
                        parts.clock())
                .run((warmIdentity, warmPasses, warmLimits) -> {
                    // Counted nowhere a user looks: the warm-up's answers are in no figure of a sale.
                    IngressMetrics uncounted = new IngressMetrics(new SimpleMeterRegistry());
                    OrderDesk rehearsal = buyPath.desk(
                            warmIdentity,
                            warmPasses,
                            new RateLimiter(parts.rateLimitCounters(), warmLimits, uncounted),
                            uncounted,
                            new SoldOutMemory(config.soldOutMemory(), System::nanoTime));
                    return IngressRoutes.start(
                            List.of(rehearsal),
                            guard,
                            uncounted,
                            false,
                            threads(config),
                            IngressRoutes.Listeners.loopback());
                });
    }

    private static IngressRoutes.Threads threads(IngressConfig config) {
        return config.virtualThreads() ? IngressRoutes.Threads.VIRTUAL : IngressRoutes.Threads.PLATFORM;
    }

    /**
     * Buyers are served while Kafka is down (the outbox keeps every order), so the ingress starts without
     * it too; with the topics missing, every publish would wait for metadata until they exist.
     */
    private static void ensureTopicsIfReachable(IngressConfig config) {
        try {
            KafkaClients.ensureTopics(config.infra().kafka(), config.topics(), TOPICS_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warn(
                    "could not ensure the topics ({}); orders wait in the outbox until the stream-processor or Kafka"
                            + " is back",
                    e.toString());
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
