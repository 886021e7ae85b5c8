package io.seckill.reconciler;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.Outbox;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/** The relay re-publishes open rows past their due time onto order-requests, keyed by SKU, and then waits a grace again. */
class OutboxRelayIT {

    @Test
    void dueRowsArePublishedOnceAndNotDueOrCompletedRowsStayPut() {
        KafkaClients.ensureTopics(Stores.INFRA.kafkaBootstrap(), 12, KafkaClients.START_TIMEOUT);
        long sku = Stores.openSale(10, 1);
        Instant now = Instant.now();
        OrderRequested due = Stores.accepted(sku, "due", now.minusSeconds(1));
        OrderRequested notYet = Stores.accepted(sku, "not-yet", now.plusSeconds(600));
        OrderRequested decided = Stores.accepted(sku, "decided", now.minusSeconds(1));
        new Outbox().complete(Stores.sql(), List.of(decided.orderId()), now);

        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.producer(Stores.INFRA.kafkaBootstrap(), "relay-test"));
             KafkaProbe kafka = new KafkaProbe(Stores.INFRA.kafkaBootstrap())) {
            OutboxRelay relay = new OutboxRelay(Stores.sql(), new Outbox(), producer, Duration.ofMinutes(5), 2, Clock.systemUTC());
            assertThat(relay.relayDue()).isPositive();
            relay.relayDue();

            List<OrderRequested> published = kafka.readAll(Topic.ORDER_REQUESTS.topicName()).stream()
                    .filter(record -> new String(record.key()).equals(Long.toString(sku)))
                    .map(ConsumerRecord::value)
                    .map(Topic.ORDER_REQUESTS::decode)
                    .toList();
            assertThat(published).containsExactly(due);
        }
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(due.orderId()))).isEqualTo(1);
        assertThat(Stores.sql().fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(notYet.orderId()))).isZero();
        assertThat(Stores.sql().fetchValue(OUTBOX.PAYLOAD, OUTBOX.ID.eq(due.orderId()))).isEqualTo(EventJson.encodeToString(due));
    }
}
