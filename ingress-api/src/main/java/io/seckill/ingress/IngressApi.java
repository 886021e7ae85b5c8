package io.seckill.ingress;

import io.javalin.Javalin;
import io.seckill.runtime.Database;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.RedisConnections;
import io.seckill.runtime.SaleStore;
import io.seckill.runtime.SkuFiguresReader;
import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/** The ingress HTTP service and the connections it owns. */
public final class IngressApi implements AutoCloseable {

    /** Bodies here are a few dozen bytes; anything far larger is not a buyer. */
    static final long MAX_BODY_BYTES = 16 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(IngressApi.class);

    private final Database database;
    private final RedisClient redis;
    private final KafkaProducer<String, byte[]> producer;
    private final Javalin app;

    private IngressApi(Database database, RedisClient redis, KafkaProducer<String, byte[]> producer, IngressConfig config) {
        this.database = database;
        this.redis = redis;
        this.producer = producer;
        SaleStore saleStore = new SaleStore(redis);
        SaleAdmin admin = new SaleAdmin(database.dsl(), saleStore, new SkuFiguresReader(database.dsl(), saleStore));
        OrderDesk desk = new OrderDesk(saleStore, database.dsl(), new OrderPublisher(producer), config.relayGrace(), Clock.systemUTC());
        OrderStatusQuery status = new OrderStatusQuery(database.dsl());
        this.app = Javalin.create(cfg -> {
            cfg.http.maxRequestSize = MAX_BODY_BYTES;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.put("/admin/v1/skus/{skuId}", admin::put);
            cfg.routes.get("/admin/v1/skus/{skuId}", admin::get);
            cfg.routes.post("/api/v1/skus/{skuId}/orders", desk::buy);
            cfg.routes.get("/api/v1/orders/{orderId}", status::get);
            cfg.routes.get("/health", ctx -> Json.respond(ctx, 200, Map.of("status", "UP")));
            cfg.routes.exception(Problem.class, (problem, ctx) -> Json.problem(ctx, problem));
            cfg.routes.exception(Exception.class, (failure, ctx) -> {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), failure);
                Json.problem(ctx, new Problem(500, "INTERNAL_ERROR", "Internal error", "the request failed; nothing was reserved unless a 202 was returned"));
            });
        });
    }

    public static IngressApi start(IngressConfig config) {
        Properties producerProps = KafkaClients.producer(config.infra().kafkaBootstrap(), "ingress-api");
        producerProps.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) config.kafkaMaxBlock().toMillis());
        IngressApi api = new IngressApi(
                Database.connectAndMigrate(config.infra(), "ingress-api", config.mysqlPoolSize()),
                RedisConnections.open(config.infra().redisUrl(), config.redisPoolSize()),
                new KafkaProducer<>(producerProps),
                config);
        api.app.start(config.httpPort());
        LOG.info("ingress-api listening on http://localhost:{}", api.port());
        return api;
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
        // Bounded: with Kafka unreachable, unsent orders are the relay's job, not a reason to hang.
        producer.close(java.time.Duration.ofSeconds(5));
        redis.close();
        database.close();
    }
}
