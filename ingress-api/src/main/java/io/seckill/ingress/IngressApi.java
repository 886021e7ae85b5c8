package io.seckill.ingress;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.seckill.ingress.auth.AdminGuard;
import io.seckill.ingress.auth.BearerTokenIdentity;
import io.seckill.ingress.auth.BuyerIdentity;
import io.seckill.ingress.auth.BuyerToken;
import io.seckill.ingress.auth.TrustedHeaderIdentity;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.SaleDefinitions;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.redisstate.IdempotencyClaims;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.management.BrokerCheck;
import io.seckill.runtime.management.ServiceHost;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/** The ingress HTTP service: its routes, and the connections it owns. */
public final class IngressApi implements AutoCloseable {

    /** Bodies here are a few dozen bytes; anything far larger is not a buyer. */
    static final long MAX_BODY_BYTES = 16 * 1024;
    /** Every answer but the OpenAPI document fits in one pass; a larger one takes several. */
    static final int RESPONSE_COPY_BUFFER_BYTES = 2 * 1024;
    /** Request attribute: the outcome code counted in the request metrics. */
    static final String OUTCOME = "seckill.outcome";
    private static final Logger LOG = LoggerFactory.getLogger(IngressApi.class);
    private static final Duration TOPICS_TIMEOUT = Duration.ofSeconds(5);

    private final Database database;
    private final RedisClient redis;
    private final LuaRunner lua;
    private final KafkaProducer<String, byte[]> producer;
    private final Admin kafkaAdmin;
    private final IngressMetrics metrics;
    private final KafkaClientMetrics producerMetrics;
    private final OutboxWriter outbox;
    private final OrderFence fence;
    private final List<String> routes = new ArrayList<>();
    private final Javalin app;

    private IngressApi(Database database, RedisClient redis, KafkaProducer<String, byte[]> producer, Admin kafkaAdmin,
                       IngressConfig config, ServiceHost host) {
        this.database = database;
        this.redis = redis;
        this.producer = producer;
        this.kafkaAdmin = kafkaAdmin;
        this.metrics = new IngressMetrics(host.meters());
        this.producerMetrics = new KafkaClientMetrics(producer);
        producerMetrics.bindTo(host.meters());
        host.readiness().reachable("redis", redis::ping);
        host.readiness().reachable("mysql", database::ping);
        BrokerCheck.addTo(host.readiness(), kafkaAdmin);
        Clock clock = host.clock();
        this.lua = config.redisPipelines() > 0 ? LuaRunner.pipelined(redis, config.redisPipelines()) : new LuaRunner(redis);
        SaleStore saleStore = new SaleStore(lua);
        OrderStatusStore statuses = new OrderStatusStore(lua, config.orderStatusTtl());
        BuyerIdentity identity = identity(config.auth(), clock);
        AdminGuard adminGuard = new AdminGuard(config.auth().adminToken());
        Orders orders = new Orders();
        Outbox outboxTable = new Outbox();
        Skus skus = new Skus();
        SaleAdmin admin = new SaleAdmin(database.dsl(), skus, new SaleDefinitions(), orders, outboxTable, saleStore, clock);
        RedisAdmin redisAdmin = new RedisAdmin(new RedisEpoch(lua));
        KnownSkus knownSkus = new KnownSkus(database.dsl(), skus);
        StockAdjustmentDesk stockAdjustments = new StockAdjustmentDesk(database.dsl(), new StockAdjustments(), saleStore, knownSkus, clock);
        this.outbox = new OutboxWriter(database.dsl(), outboxTable, statuses, config.relayGrace(), config.outboxWait(),
                config.outboxWriters(), metrics);
        this.fence = new OrderFence(database.dsl(), outboxTable, saleStore, statuses, clock);
        IdempotentReplies idempotent = new IdempotentReplies(new IdempotencyClaims(lua, config.idempotencyTtl(),
                IdempotentReplies.claimTtl(config.outboxWait())));
        OrderDesk desk = new OrderDesk(identity, saleStore, outbox, fence, new KeyedOrders(database.dsl(), outboxTable),
                knownSkus, new OrderPublisher(producer),
                new SoldOutMemory(config.soldOutMemory(), System::nanoTime),
                new RateLimiter(new RateLimitCounters(lua), config.rateLimits(), clock, metrics),
                idempotent, metrics, config, clock);
        OrderStatusQuery status = new OrderStatusQuery(identity, statuses, database.dsl(), orders, outboxTable);
        OrderEndingDesk endings = new OrderEndingDesk(identity, database.dsl(), orders, outboxTable, new OrderEndings(config.relayGrace()),
                paymentVerifier(config.paymentVerifier()), producer, idempotent, clock);
        byte[] openApi = resource("/openapi.json");
        this.app = Javalin.create(cfg -> {
            cfg.http.maxRequestSize = MAX_BODY_BYTES;
            cfg.http.prefer405over404 = true;
            // Every answer here is a few hundred bytes: compressing costs more than it saves.
            cfg.http.compressionStrategy = CompressionStrategy.NONE;
            // Javalin copies each response through a buffer of this size, allocated per response; its
            // default, Jetty's 32 KiB output buffer, made that copy most of the ingress's allocation.
            cfg.http.responseBufferSize = RESPONSE_COPY_BUFFER_BYTES;
            cfg.startup.showJavalinBanner = false;
            cfg.events.handlerAdded(handler -> {
                if (handler.getHttpMethod().isHttpMethod()) {
                    routes.add(handler.getHttpMethod().name() + " " + handler.getPath());
                }
            });
            cfg.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            cfg.routes.before("/admin/*", adminGuard::check);
            cfg.routes.put("/admin/v1/skus/{skuId}", admin::put);
            cfg.routes.get("/admin/v1/skus/{skuId}", admin::get);
            cfg.routes.post("/admin/v1/skus/{skuId}/stock-adjustments", stockAdjustments::post);
            cfg.routes.post("/admin/v1/redis/rebuild", redisAdmin::rebuild);
            cfg.routes.post("/api/v1/skus/{skuId}/orders", ctx -> {
                long started = System.nanoTime();
                try {
                    desk.buy(ctx);
                } finally {
                    metrics.buy(System.nanoTime() - started);
                }
            });
            cfg.routes.get("/api/v1/orders/{orderId}", status::get);
            cfg.routes.get("/api/v1/orders", status::list);
            cfg.routes.post("/api/v1/orders/{orderId}/payment", endings::pay);
            cfg.routes.post("/api/v1/orders/{orderId}/cancellation", endings::cancel);
            cfg.routes.get("/health", ctx -> Json.respond(ctx, 200, Map.of("status", "UP")));
            cfg.routes.get("/openapi.json", ctx -> ctx.contentType(Reply.APPLICATION_JSON).result(openApi));
            if (config.benchmarkMode()) {
                // The ceiling a benchmark compares against: the same server doing nothing.
                cfg.routes.get("/bench/noop", ctx -> ctx.result("ok"));
            }
            cfg.routes.after(ctx -> countRequest(ctx));
            cfg.routes.exception(Problem.class, (problem, ctx) -> Json.problem(ctx, problem));
            cfg.routes.exception(HttpResponseException.class, (failure, ctx) ->
                    Json.problem(ctx, new Problem(ErrorCode.forHttpStatus(failure.getStatus()), failure.getMessage())));
            cfg.routes.exception(Exception.class, (failure, ctx) -> {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), failure);
                Json.problem(ctx, new Problem(ErrorCode.INTERNAL_ERROR, "the request failed; nothing was reserved unless a 202 was returned"));
            });
        });
    }

    /** Starts serving buyers; readiness and metrics go to the host's management port. */
    public static IngressApi start(IngressConfig config, ServiceHost host) {
        ensureTopicsIfReachable(config);
        Properties producerProps = KafkaClients.producer(config.infra().kafkaBootstrap(), "ingress-api");
        producerProps.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) config.kafkaMaxBlock().toMillis());
        IngressApi api = new IngressApi(
                Database.connectAndMigrate(config.infra(), "ingress-api", config.mysqlPoolSize(), host.meters()),
                RedisConnections.open(config.infra().redisUrl(), config.redisPoolSize()),
                new KafkaProducer<>(producerProps),
                Admin.create(KafkaClients.admin(config.infra().kafkaBootstrap())),
                config, host);
        api.app.start(config.httpPort());
        LOG.info("ingress-api listening on http://localhost:{} (auth mode {}), serving {}", api.port(), config.auth().mode(), api.routes());
        return api;
    }

    /**
     * Buyers are served while Kafka is down (the outbox keeps every order), so the ingress starts without
     * it too; with the topics missing, every publish would wait for metadata until they exist.
     */
    private static void ensureTopicsIfReachable(IngressConfig config) {
        try {
            KafkaClients.ensureTopics(config.infra().kafkaBootstrap(), config.topicPartitions(), TOPICS_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warn("could not ensure the topics ({}); orders wait in the outbox until the stream-processor or Kafka is back", e.toString());
        }
    }

    /** The payment provider's port; only the development stand-in exists, and it says so. */
    private static PaymentVerifier paymentVerifier(String name) {
        if (!"development".equals(name)) {
            throw new IllegalArgumentException("SECKILL_PAYMENT_VERIFIER " + name + " is unknown: the only one built in is development;"
                    + " a payment provider implements PaymentVerifier");
        }
        LOG.warn("SECKILL_PAYMENT_VERIFIER=development: every payment reference is taken as paid; nothing is charged");
        return PaymentVerifier.acceptingEveryReference();
    }

    /** Fails fast on a missing or weak secret: an ingress must never start open. */
    private static BuyerIdentity identity(IngressConfig.Auth auth, Clock clock) {
        if (auth.trustedHeader()) {
            LOG.warn("auth mode trusted-header: X-User-Id is believed as sent; only run this behind a gateway that sets it");
            return new TrustedHeaderIdentity();
        }
        if (!"token".equals(auth.mode())) {
            throw new IllegalArgumentException("SECKILL_AUTH_MODE must be token or trusted-header, was " + auth.mode());
        }
        if (auth.tokenSecret() == null) {
            throw new IllegalArgumentException(IngressConfig.TOKEN_SECRET + " is required (at least " + BuyerToken.MIN_SECRET_BYTES + " bytes)");
        }
        return new BearerTokenIdentity(new BuyerToken(auth.tokenSecret(), clock, auth.clockSkew()));
    }

    private void countRequest(Context ctx) {
        Object outcome = ctx.attribute(OUTCOME);
        Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
        String route = matched == null ? "unmatched" : matched.path;
        metrics.request(route, outcome != null ? outcome.toString() : ctx.status().name());
    }

    private static byte[] resource(String name) {
        try (InputStream in = IngressApi.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return app.port();
    }

    /** "METHOD /path" of every route this instance serves. */
    public List<String> routes() {
        return List.copyOf(routes);
    }

    @Override
    public void close() {
        app.stop();
        outbox.close();
        fence.close();
        producerMetrics.close();
        // Bounded: with Kafka unreachable, unsent orders are the relay's job, not a reason to hang.
        producer.close(Duration.ofSeconds(5));
        kafkaAdmin.close(Duration.ofSeconds(5));
        lua.close();
        redis.close();
        database.close();
    }
}
