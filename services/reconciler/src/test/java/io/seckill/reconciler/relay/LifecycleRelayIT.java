package io.seckill.reconciler.relay;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.RelayBackoff;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.reconciler.Stores;
import io.seckill.reconciler.lifecycle.StockReturns;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.KafkaProbe;
import io.seckill.runtime.TopicLayout;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/**
 * A lifecycle event whose direct publish was lost is sent by the relay after its grace, its units reach Redis once it
 * is consumed, and it is never sent again.
 */
class LifecycleRelayIT {

    @Test
    void aCancellationWhosePublishWasLostIsSentByTheRelayAndItsUnitsReachRedis() throws Exception {
        KafkaClients.ensureTopics(Stores.INFRA.kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        long sku = Stores.openSale(10, 2);
        OrderLifecycleEvent cancelled = Stores.confirmedThenCancelled(sku, "unpublished");
        // Past the relay's grace: the event was never published and never consumed.
        Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1));
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(KafkaClients.producer(Stores.INFRA.kafka(), "lifecycle-relay-test"));
                KafkaProbe kafka = new KafkaProbe(Stores.INFRA.kafka())) {
            LifecycleRelay relay = new LifecycleRelay(
                    new RelaySends(Stores.sql(), new OrderEvents(), producer, Duration.ofSeconds(1), later),
                    new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)),
                    500,
                    later);

            assertThat(relay.relayDue()).isPositive();
            assertThat(relay.relayDue()).as("sent again only after its backoff").isZero();
            List<OrderLifecycleEvent> sent = kafka.readAll(Topic.ORDER_LIFECYCLE.topicName()).stream()
                    .filter(record -> cancelled.orderId().equals(new String(record.key(), StandardCharsets.UTF_8)))
                    .map(record -> Topic.ORDER_LIFECYCLE.decode(record.value()))
                    .toList();
            assertThat(sent).containsExactly(cancelled);

            returns().onEvents(sent.stream().map(Stores::delivery).toList());

            assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(10, 0));
            LifecycleRelay muchLater = new LifecycleRelay(
                    new RelaySends(
                            Stores.sql(),
                            new OrderEvents(),
                            producer,
                            Duration.ofSeconds(1),
                            Clock.offset(later, Duration.ofHours(1))),
                    new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)),
                    500,
                    Clock.offset(later, Duration.ofHours(1)));
            assertThat(Stores.sql().fetchValue(ORDER_EVENTS.COMPLETED_AT, ORDER_EVENTS.ID.eq(cancelled.orderId())))
                    .isNotNull();
            assertThat(muchLater.relayDue()).as("a consumed event is never sent again").isZero();
        }
    }

    private static StockReturns returns() {
        return new StockReturns(Stores.sql(), new Orders(), new ReturnedUnits(), new OrderEvents(), Stores.SALES,
                Stores.UNSUPPORTED, Clock.systemUTC(), Stores.metrics());
    }
}
