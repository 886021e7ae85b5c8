package io.seckill.reconciler.relay;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaAccess;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.reconciler.Stores;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.runtime.TopicLayout;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.kafka.RelayHeaders;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.trace.TraceHeaders;
import io.seckill.schemas.trace.TraceParent;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The relay re-publishes open rows past their due time onto order-requests, keyed by SKU, and then
 * waits longer again; it holds no row lock while Kafka keeps it waiting; an order it sent as often as
 * it may is rejected UNDELIVERED and its stock returned.
 */
class OutboxRelayIT {

    private static final Orders ORDERS = new Orders();

    @BeforeAll
    static void topics() {
        KafkaClients.ensureTopics(Stores.INFRA.kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
    }

    @Test
    void dueRowsArePublishedOnceAndNotDueOrCompletedRowsStayPut() {
        long sku = Stores.openSale(10, 1);
        Instant now = Instant.now();
        OrderRequested due = Stores.accepted(sku, "due", now.minusSeconds(1));
        OrderRequested notYet = Stores.accepted(sku, "not-yet", now.plusSeconds(600));
        OrderRequested decided = Stores.accepted(sku, "decided", now.minusSeconds(1));
        new Outbox().complete(Stores.sql(), List.of(decided.orderId()), now);

        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(Stores.INFRA.kafka(), "relay-test"));
                KafkaProbe kafka = new KafkaProbe(Stores.INFRA.kafka())) {
            OutboxRelay relay = relay(producer, new RelayBackoff(Duration.ofMinutes(5),
                    Duration.ofMinutes(5)), 2);
            assertThat(relay.relayDue()).isPositive();
            relay.relayDue();

            List<ConsumerRecord<byte[], byte[]>> records = kafka.readAll(Topic.ORDER_REQUESTS.topicName()).stream()
                    .filter(record -> new String(record.key(), StandardCharsets.UTF_8).equals(Long.toString(sku)))
                    .toList();
            List<OrderRequested> published = records.stream()
                    .map(ConsumerRecord::value)
                    .map(Topic.ORDER_REQUESTS::decode)
                    .toList();
            assertThat(published).containsExactly(due);
            assertThat(records)
                    .as("marked as the relay's, so the gate lets it through")
                    .allMatch(record -> RelayHeaders.resent(record.headers()));
            assertThat(records).as("carrying the trace its row was written under")
                    .allSatisfy(record -> assertThat(TraceHeaders.of(record.headers()).map(TraceParent::toString))
                            .contains(Stores.sql().fetchValue(OUTBOX.TRACEPARENT, OUTBOX.ID.eq(due.orderId()))));
        }
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(due.orderId()))).isEqualTo(1);
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(notYet.orderId()))).isZero();
        assertThat(Stores.sql().fetchValue(OUTBOX.PAYLOAD, OUTBOX.ID.eq(due.orderId())))
                .isEqualTo(EventJson.encodeToString(due));
    }

    @Test
    void noRowLockIsHeldWhileTheRelayWaitsOnKafka() throws Exception {
        long sku = Stores.openSale(10, 1);
        OrderRequested due = Stores.accepted(sku, "waiting", Instant.now().minusSeconds(1));
        try (KafkaProducer<String, byte[]> producer = producerToNobody("relay-unreachable", 5_000)) {
            OutboxRelay relay = relay(producer, new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)), 500);
            Thread relaying = new Thread(() -> {
                try {
                    relay.relayDue();
                } catch (RuntimeException expected) {
                    // Kafka never answers: the send fails once max.block.ms is over
                }
            }, "relay-under-test");
            relaying.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> Arrays.stream(relaying.getStackTrace())
                    .anyMatch(frame -> frame.getMethodName().equals("waitOnMetadata")));

            // What the sink does when it decides the order: it must not wait for the relay.
            int completed = Stores.sql().connectionResult(connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET SESSION innodb_lock_wait_timeout = 1");
                    return statement.executeUpdate(
                            "UPDATE outbox SET completed_at = NOW(3) WHERE id = '" + due.orderId() + "'");
                }
            });
            assertThat(completed).isEqualTo(1);
            relaying.join();
        }
    }

    @Test
    void aSendTheBrokerDidNotAcknowledgeIsNotCountedAndComesDueAgainSoon() throws Exception {
        long sku = Stores.openSale(10, 1);
        OrderRequested due = Stores.accepted(sku, "unacknowledged", Instant.now().minusSeconds(1));
        try (KafkaProducer<String, byte[]> producer = producerToNobody("relay-unacknowledged", 1_000)) {
            OutboxRelay relay = relay(producer, new RelayBackoff(Duration.ofMinutes(1), Duration.ofMinutes(5)), 500);

            assertThatThrownBy(relay::relayDue).as("Kafka never answers").isInstanceOf(RuntimeException.class);
        }

        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(due.orderId())))
                .as("sends counted")
                .isZero();
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_AFTER, OUTBOX.ID.eq(due.orderId())))
                .as("due again within the retry, not after the minute a counted send would wait")
                .isBefore(Instant.now().plusSeconds(5));
    }

    private static OutboxRelay relay(Producer<String, byte[]> producer, RelayBackoff backoff, int batchSize) {
        return relay(producer, backoff, 12, batchSize);
    }

    private static OutboxRelay relay(
            Producer<String, byte[]> producer, RelayBackoff backoff, int maxAttempts, int batchSize) {
        return new OutboxRelay(
                new RelaySends(Stores.sql(), new Outbox(), producer, Duration.ofSeconds(1), Clock.systemUTC()),
                backoff,
                maxAttempts,
                batchSize,
                Clock.systemUTC(),
                Stores.metrics());
    }

    @Test
    void anOrderTheBrokerAcknowledgedIsSentAgainPastTheLimitAndNeverGivenUp() {
        long sku = Stores.openSale(10, 1);
        OrderRequested undecided = Stores.accepted(sku, "acknowledged-undecided", Instant.now().minusSeconds(1));

        relayAndGiveUpUntil(KafkaClients.producer(Stores.INFRA.kafka(), "relay-acknowledged"),
                () -> Stores.sql().fetchValue(OUTBOX.RELAY_ACKS, OUTBOX.ID.eq(undecided.orderId())) >= 5);

        assertThat(ORDERS.stored(Stores.sql(), undecided.orderId())).as("no decision but the pipeline's").isEmpty();
        assertThat(new OutboxLookups().states(Stores.sql(), List.of(undecided.orderId())))
                .containsValue(OutboxLookups.RowState.OPEN);
        assertThat(Stores.PROBE.heldBy(sku, "acknowledged-undecided")).isEqualTo(1);
    }

    @Test
    void anOrderWhoseRecordTheBrokerRefusesEveryTimeIsRejectedUndelivered() {
        long sku = Stores.openSale(10, 1);
        OrderRequested refused = Stores.accepted(sku, "refused", Instant.now().minusSeconds(1));
        Properties tooSmall = KafkaClients.producer(Stores.INFRA.kafka(), "relay-refused");
        tooSmall.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 64);

        relayAndGiveUpUntil(tooSmall, () -> ORDERS.stored(Stores.sql(), refused.orderId()).isPresent());

        assertThat(ORDERS.stored(Stores.sql(), refused.orderId())).hasValueSatisfying(order -> {
            assertThat(order.status()).isEqualTo(OrderStatus.REJECTED);
            assertThat(order.reason()).isEqualTo(RejectReason.UNDELIVERED);
        });
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(refused.orderId()))).isEqualTo(3);
        assertThat(Stores.PROBE.heldBy(sku, "refused")).isZero();
        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(10);
    }

    /** The relay's job with a limit of 3 refused sends and every row due again at once, run until {@code done}. */
    private static void relayAndGiveUpUntil(Properties producerSettings, Callable<Boolean> done) {
        UndeliverableOrders undeliverable = new UndeliverableOrders(
                Stores.sql(),
                new Outbox(),
                ORDERS,
                Stores.SALES,
                Stores.STATUSES,
                3,
                500,
                Clock.systemUTC(),
                Stores.metrics());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerSettings)) {
            OutboxRelay relay = relay(producer, new RelayBackoff(Duration.ofMillis(1), Duration.ofMillis(1)), 3, 500);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                relay.relayDue();
                undeliverable.giveUp();
                return done.call();
            });
        }
    }

    /** A producer whose broker never answers: a send fails once {@code maxBlockMs} is over. */
    private static KafkaProducer<String, byte[]> producerToNobody(String clientId, int maxBlockMs) throws IOException {
        Properties unreachable = KafkaClients.producer(
                new KafkaAccess(
                        "127.0.0.1:" + portNobodyListensOn(),
                        Stores.INFRA.kafka().security()),
                clientId);
        unreachable.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlockMs);
        return new KafkaProducer<>(unreachable);
    }

    private static int portNobodyListensOn() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void anOrderRefusedAsOftenAsAllowedIsRejectedUndeliveredAndItsStockReturns() {
        long sku = Stores.openSale(10, 2);
        OrderRequested stuck = Stores.accepted(sku, "stuck", Instant.now().minusSeconds(1));
        OrderRequested decided = Stores.accepted(sku, "decided-late", Instant.now().minusSeconds(1));
        ORDERS.insert(
                Stores.sql(),
                List.of(decided),
                List.of(OrderResult.confirmed(decided, Instant.now())),
                Duration.ofMinutes(15));
        Stores.sql()
                .update(OUTBOX)
                .set(OUTBOX.RELAY_ATTEMPTS, 12)
                .where(OUTBOX.ID.in(stuck.orderId(), decided.orderId()))
                .execute();
        UndeliverableOrders undeliverable = new UndeliverableOrders(
                Stores.sql(),
                new Outbox(),
                ORDERS,
                Stores.SALES,
                Stores.STATUSES,
                12,
                500,
                Clock.systemUTC(),
                Stores.metrics());

        undeliverable.giveUp();
        undeliverable.giveUp();

        assertThat(ORDERS.stored(Stores.sql(), stuck.orderId())).hasValueSatisfying(order -> {
            assertThat(order.status()).isEqualTo(OrderStatus.REJECTED);
            assertThat(order.reason()).isEqualTo(RejectReason.UNDELIVERED);
        });
        assertThat(ORDERS.stored(Stores.sql(), decided.orderId()))
                .map(Orders.Stored::status)
                .contains(OrderStatus.CONFIRMED);
        assertThat(new OutboxLookups().states(Stores.sql(), List.of(stuck.orderId(), decided.orderId())).values())
                .containsOnly(OutboxLookups.RowState.COMPLETED);
        assertThat(Stores.PROBE.heldBy(sku, "stuck")).isZero();
        assertThat(Stores.PROBE.heldBy(sku, "decided-late")).isEqualTo(1);
        assertThat(Stores.SALES.state(sku).stock()).isEqualTo(9);
    }
}
