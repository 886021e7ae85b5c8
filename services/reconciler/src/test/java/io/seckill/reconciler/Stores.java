package io.seckill.reconciler;

import static io.seckill.schemas.db.Tables.USER_PURCHASES;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import io.seckill.redisstate.RedisProbe;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.TopicLayout;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceParent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import redis.clients.jedis.UnifiedJedis;

/**
 * The real stores the reconciler works on, one set per test JVM, and a sale in both. Each test takes its own SKU ids.
 */
public final class Stores {

    public static final InfraAddresses INFRA =
            LocalInfrastructure.get().operatorAddressesFor(KafkaPrincipal.RECONCILER);
    /** As the reconciler's own account, so that these tests hold its work to its grants. */
    public static final Database DATABASE = Database.connect(INFRA, "reconciler-test", 4, new SimpleMeterRegistry());

    private static final Database OWNER = Database.connect(
            LocalInfrastructure.get().ownerAddresses(), "reconciler-test-owner", 1, new SimpleMeterRegistry());
    /** As the default user, for what no service may do: flush Redis, rewrite a key by hand. */
    public static final UnifiedJedis REDIS = RedisConnections.open(LocalInfrastructure.get().addresses().redis(), 8);
    /** As the reconciler's ACL user, so that these tests hold its work to its rights. */
    public static final LuaRunner LUA = new LuaRunner(RedisConnections.open(INFRA.redis(), 8));
    public static final RedisProbe PROBE = new RedisProbe(REDIS);
    public static final SaleStore SALES = new SaleStore(LUA);
    public static final WaitingRoom ROOMS = new WaitingRoom(LUA);
    public static final OrderStatusStore STATUSES = new OrderStatusStore(LUA, Duration.ofMinutes(10));
    /** Refusals are counted here and dead-lettered on the real broker, as the reconciler's are. */
    public static final SimpleMeterRegistry REFUSALS = new SimpleMeterRegistry();
    private static final KafkaProducer<String, byte[]> PRODUCER = producer();
    public static final UnsupportedRecords UNSUPPORTED = new UnsupportedRecords(
            new DeadLetterPublisher(PRODUCER, ReconcilerParts.STAGE), REFUSALS, ReconcilerParts.STAGE);
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);

    private Stores() {
    }

    /** Figures go to a registry of their own: these tests read the stores, not the meters. */
    public static ReconcilerMetrics metrics() {
        return new ReconcilerMetrics(new SimpleMeterRegistry(), Clock.systemUTC());
    }

    private static KafkaProducer<String, byte[]> producer() {
        KafkaClients.ensureTopics(INFRA.kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        return new KafkaProducer<>(KafkaClients.producer(INFRA.kafka(), "reconciler-test"));
    }

    /** How many records of {@code topic} were refused for {@code reason} so far. */
    public static double refused(Topic<?> topic, UnsupportedRecords.Reason reason) {
        return REFUSALS
                .find("seckill.records.refused")
                .tag("topic", topic.topicName())
                .tag("reason", reason.name())
                .counters()
                .stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    /**
     * As the migration account, which owns the schema: for a test that stages what another service writes (a sale an
     * admin defines, a purchase the sink counts) or a failure with a trigger.
     */
    public static DSLContext owner() {
        return OWNER.dsl();
    }

    public static DSLContext sql() {
        return DATABASE.dsl();
    }

    /** A sale open now, defined in MySQL and loaded into Redis with the same stock. */
    public static long openSale(int stock, int perUserLimit) {
        return openSale(NEXT_SKU.incrementAndGet(), stock, perUserLimit);
    }

    /** A sale open now on {@code primary}: a SKU id whose slot it serves. */
    public static long openSaleOn(RedisPrimaries.Primary primary, int stock, int perUserLimit) {
        long sku = NEXT_SKU.incrementAndGet();
        while (!primary.serves(sku)) {
            sku = NEXT_SKU.incrementAndGet();
        }
        return openSale(sku, stock, perUserLimit);
    }

    private static long openSale(long sku, int stock, int perUserLimit) {
        return openSplitSale(sku, stock, perUserLimit, 1);
    }

    /**
     * A sale open now, its stock split over {@code buckets} buckets in Redis, as its definition in MySQL says (as an
     * admin defines it).
     */
    public static long openSplitSale(long sku, int stock, int perUserLimit, int buckets) {
        Instant now = Instant.now();
        new Skus()
                .define(
                        owner(),
                        new Skus.Sale(
                                sku,
                                "sku " + sku,
                                stock,
                                perUserLimit,
                                now.minusSeconds(60),
                                now.plusSeconds(3600),
                                false,
                                buckets,
                                null),
                        now);
        SALES.loadSale(
                sku,
                stock,
                buckets,
                perUserLimit,
                now.minusSeconds(60).toEpochMilli(),
                now.plusSeconds(3600).toEpochMilli(),
                new Skus().current(sql(), sku).orElseThrow().version(),
                false);
        return sku;
    }

    public static long newSkuId() {
        return NEXT_SKU.incrementAndGet();
    }

    /** The decision as the sink commits it (the order row; stock and purchases are not the reconciler's to check). */
    public static OrderResult decided(OrderRequested order, OrderResult decision) {
        new Orders().insert(sql(), List.of(order), List.of(decision), Duration.ofMinutes(15));
        return decision;
    }

    /** An order as the ingress leaves it: reserved in Redis, its row in the outbox (due at {@code relayAfter}). */
    public static OrderRequested accepted(long sku, String userId, Instant relayAfter) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, userId, 1, Instant.now());
        SALES.reserve(sku, order.orderId(), userId, 1, order.requestedAt().toEpochMilli(), false);
        return recorded(order, relayAfter);
    }

    /**
     * As the ingress does, through {@code sales}: the order recorded only if reserved. @return empty when refused
     * (nothing written)
     */
    public static Optional<OrderRequested> bought(SaleStore sales, long sku, String userId, Instant relayAfter) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, userId, 1, Instant.now());
        if (sales.reserve(sku, order.orderId(), userId, 1, order.requestedAt().toEpochMilli(), false)
                        .reservation()
                != SaleStore.Reservation.RESERVED) {
            return Optional.empty();
        }
        return Optional.of(recorded(order, relayAfter));
    }

    /** The outbox row of a reserved order, as the ingress commits it. */
    public static OrderRequested recorded(OrderRequested order, Instant relayAfter) {
        new Outbox()
                .insert(
                        sql(),
                        List.of(new Outbox.NewRow(
                                new OrderFacts(order.orderId(), order.skuId(), order.userId(), 1),
                                EventJson.encodeToString(order),
                                null,
                                relayAfter,
                                TraceParent.start().toString())));
        return order;
    }

    /**
     * An order of 2 units confirmed in both stores, as the sink and the reconciler leave it, then cancelled by its
     * buyer.
     */
    public static OrderLifecycleEvent confirmedThenCancelled(long sku, String buyer) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, buyer, 2, Instant.now());
        Stores.SALES.reserve(sku, order.orderId(), buyer, 2, order.requestedAt().toEpochMilli(), false);
        OrderResult confirmed = OrderResult.confirmed(order, Instant.now());
        // As the sink commits it.
        Stores.owner().transaction(configuration -> {
            DSLContext tx = DSL.using(configuration);
            new Orders().insert(tx, List.of(order), List.of(confirmed), Duration.ofMinutes(15));
            new Skus().charge(tx, sku, 2, Instant.now());
            tx.insertInto(USER_PURCHASES).set(USER_PURCHASES.SKU_ID, sku).set(USER_PURCHASES.USER_ID, buyer)
                    .set(USER_PURCHASES.QUANTITY, 2).execute();
        });
        Stores.SALES.confirmAll(List.of(confirmed));
        // As the ingress's buyer cancels it.
        return new OrderEndings(Duration.ofSeconds(10))
                .cancel(Stores.owner(), order.orderId(), buyer, Instant.now())
                .event()
                .orElseThrow();
    }

    /** The event as the reconciler's consumer hands it over. */
    public static Delivery<OrderLifecycleEvent> delivery(OrderLifecycleEvent event) {
        return new Delivery<>(event, new ConsumerRecord<>(Topic.ORDER_LIFECYCLE.topicName(), 0, 0, event.orderId(),
                Topic.ORDER_LIFECYCLE.encode(event)));
    }
}
