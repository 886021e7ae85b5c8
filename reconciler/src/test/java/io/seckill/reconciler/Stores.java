package io.seckill.reconciler;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import io.seckill.redisstate.RedisProbe;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.TopicLayout;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.trace.TraceParent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.jooq.DSLContext;
import redis.clients.jedis.UnifiedJedis;

/** The real stores the reconciler works on, one set per test JVM, and a sale in both. Each test takes its own SKU ids. */
final class Stores {

    static final InfraAddresses INFRA = LocalInfrastructure.get().operatorAddressesFor(KafkaPrincipal.RECONCILER);
    /** As the reconciler's own account, so that these tests hold its work to its grants. */
    static final Database DATABASE = Database.connect(INFRA, "reconciler-test", 4, new SimpleMeterRegistry());
    private static final Database OWNER = Database.connect(LocalInfrastructure.get().ownerAddresses(), "reconciler-test-owner", 1,
            new SimpleMeterRegistry());
    /** As the default user, for what no service may do: flush Redis, rewrite a key by hand. */
    static final UnifiedJedis REDIS = RedisConnections.open(LocalInfrastructure.get().addresses().redis(), 8);
    /** As the reconciler's ACL user, so that these tests hold its work to its rights. */
    static final LuaRunner LUA = new LuaRunner(RedisConnections.open(INFRA.redis(), 8));
    static final RedisProbe PROBE = new RedisProbe(REDIS);
    static final SaleStore SALES = new SaleStore(LUA);
    static final OrderStatusStore STATUSES = new OrderStatusStore(LUA, Duration.ofMinutes(10));
    /** Refusals are counted here and dead-lettered on the real broker, as the reconciler's are. */
    static final SimpleMeterRegistry REFUSALS = new SimpleMeterRegistry();
    private static final KafkaProducer<String, byte[]> PRODUCER = producer();
    static final UnsupportedRecords UNSUPPORTED = new UnsupportedRecords(new DeadLetterPublisher(PRODUCER, Reconciler.STAGE), REFUSALS,
            Reconciler.STAGE);
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);

    private Stores() {
    }

    /** Figures go to a registry of their own: these tests read the stores, not the meters. */
    static ReconcilerMetrics metrics() {
        return new ReconcilerMetrics(new SimpleMeterRegistry(), Clock.systemUTC());
    }

    private static KafkaProducer<String, byte[]> producer() {
        KafkaClients.ensureTopics(INFRA.kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        return new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "reconciler-test"));
    }

    /** How many records of {@code topic} were refused for {@code reason} so far. */
    static double refused(Topic<?> topic, UnsupportedRecords.Reason reason) {
        return REFUSALS.find("seckill.records.refused").tag("topic", topic.topicName()).tag("reason", reason.name()).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /**
     * As the migration account, which owns the schema: for a test that stages what another service writes (a sale an
     * admin defines, a purchase the sink counts) or a failure with a trigger.
     */
    static DSLContext owner() {
        return OWNER.dsl();
    }

    static DSLContext sql() {
        return DATABASE.dsl();
    }

    /** A sale open now, defined in MySQL and loaded into Redis with the same stock. */
    static long openSale(int stock, int perUserLimit) {
        return openSale(NEXT_SKU.incrementAndGet(), stock, perUserLimit);
    }

    /** A sale open now on {@code primary}: a SKU id whose slot it serves. */
    static long openSaleOn(RedisPrimaries.Primary primary, int stock, int perUserLimit) {
        long sku = NEXT_SKU.incrementAndGet();
        while (!primary.serves(sku)) {
            sku = NEXT_SKU.incrementAndGet();
        }
        return openSale(sku, stock, perUserLimit);
    }

    private static long openSale(long sku, int stock, int perUserLimit) {
        return openSplitSale(sku, stock, perUserLimit, 1);
    }

    /** A sale open now, its stock split over {@code buckets} buckets in Redis, as its definition in MySQL says (as an admin defines it). */
    static long openSplitSale(long sku, int stock, int perUserLimit, int buckets) {
        Instant now = Instant.now();
        new Skus().define(owner(), new Skus.Sale(sku, "sku " + sku, stock, perUserLimit, now.minusSeconds(60), now.plusSeconds(3600), false, buckets),
                now);
        SALES.loadSale(sku, stock, buckets, perUserLimit, now.minusSeconds(60).toEpochMilli(), now.plusSeconds(3600).toEpochMilli(),
                new Skus().current(sql(), sku).orElseThrow().version(), false);
        return sku;
    }

    static long newSkuId() {
        return NEXT_SKU.incrementAndGet();
    }

    /** The decision as the sink commits it (the order row; stock and purchases are not the reconciler's to check). */
    static OrderResult decided(OrderRequested order, OrderResult decision) {
        new Orders().insert(sql(), List.of(order), List.of(decision), Duration.ofMinutes(15));
        return decision;
    }

    /** An order as the ingress leaves it: reserved in Redis, its row in the outbox (due at {@code relayAfter}). */
    static OrderRequested accepted(long sku, String userId, Instant relayAfter) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, userId, 1, Instant.now());
        SALES.reserve(sku, order.orderId(), userId, 1, order.requestedAt().toEpochMilli(), false);
        return recorded(order, relayAfter);
    }

    /** As the ingress does, through {@code sales}: the order recorded only if reserved. @return empty when refused (nothing written) */
    static Optional<OrderRequested> bought(SaleStore sales, long sku, String userId, Instant relayAfter) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, userId, 1, Instant.now());
        if (sales.reserve(sku, order.orderId(), userId, 1, order.requestedAt().toEpochMilli(), false).reservation() != SaleStore.Reservation.RESERVED) {
            return Optional.empty();
        }
        return Optional.of(recorded(order, relayAfter));
    }

    /** The outbox row of a reserved order, as the ingress commits it. */
    static OrderRequested recorded(OrderRequested order, Instant relayAfter) {
        new Outbox().insert(sql(), List.of(new Outbox.NewRow(order.orderId(), order.skuId(), order.userId(), 1, EventJson.encodeToString(order), null,
                relayAfter, TraceParent.start().toString())));
        return order;
    }
}
