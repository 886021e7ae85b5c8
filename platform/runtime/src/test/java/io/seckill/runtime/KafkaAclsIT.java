package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The broker as an outsider meets it: without credentials, or with a wrong password, nothing gets in; with a stolen
 * service's credentials, only what that service does (the ingress cannot write the lifecycle topic, the db-sink cannot
 * write order requests, nobody but the stream-processor joins its group).
 */
class KafkaAclsIT {

    private static final LocalInfrastructure INFRA = LocalInfrastructure.get();
    /** Long enough for a refused request to come back refused, far shorter than the clients' defaults. */
    private static final Duration REFUSAL = Duration.ofSeconds(5);

    @BeforeAll
    static void topics() {
        KafkaClients.ensureTopics(INFRA.addresses().kafka(), TopicLayout.of(12), KafkaClients.START_TIMEOUT);
    }

    @Test
    void aClientWithoutCredentialsOrWithAWrongPasswordGetsNothing() {
        KafkaAccess anonymous = INFRA.addresses().kafka().as(KafkaSecurity.plaintext());
        Properties props = anonymous.clientProperties();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) REFUSAL.toMillis());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REFUSAL.toMillis());
        try (Admin admin = Admin.create(props)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(REFUSAL.toSeconds() * 2, TimeUnit.SECONDS))
                    .as("a plaintext client on the SASL listener").isInstanceOf(ExecutionException.class);
        }

        KafkaAccess guessed =
                INFRA.addresses().kafka().as(KafkaSecurity.scram(KafkaPrincipal.INGRESS.user(), "a-guessed-password"));
        try (KafkaProducer<String, byte[]> producer = producer(guessed)) {
            assertThatThrownBy(() -> send(producer, Topic.ORDER_REQUESTS.record(1L, order())))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void theIngressCredentialsWriteOrderRequestsAndNothingElse() throws Exception {
        try (KafkaProducer<String, byte[]> ingress = producer(INFRA.addressesFor(KafkaPrincipal.INGRESS).kafka())) {
            send(ingress, Topic.ORDER_REQUESTS.record(1L, order()));
        }
        try (KafkaProducer<String, byte[]> ingress = producer(INFRA.addressesFor(KafkaPrincipal.INGRESS).kafka())) {
            OrderLifecycleEvent forged = new OrderCancelled(
                    OrderLifecycleEvent.CURRENT_VERSION, UUID.randomUUID().toString(), 1L, "victim", 1, Instant.now());
            assertThatThrownBy(() -> send(ingress, Topic.ORDER_LIFECYCLE.record(forged.orderId(), forged)))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void theSinkCredentialsCannotWriteOrderRequestsNorJoinTheStreamProcessorsGroup() {
        KafkaAccess sink = INFRA.addressesFor(KafkaPrincipal.DB_SINK).kafka();
        try (KafkaProducer<String, byte[]> producer = producer(sink)) {
            assertThatThrownBy(() -> send(producer, Topic.ORDER_REQUESTS.record(1L, order())))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(KafkaClients.consumer(sink, "seckill-stream-processor", "acl-test"))) {
            consumer.subscribe(List.of(Topic.ORDER_REQUESTS.topicName()));
            assertThatThrownBy(() -> consumer.poll(REFUSAL))
                    .isInstanceOfAny(GroupAuthorizationException.class, TopicAuthorizationException.class);
        }
    }

    /**
     * Only the hanging-transaction repair's login may look at another producer's transaction on a topic its service
     * does not read, and abort it (writing its markers takes the cluster's ClusterAction): the reconciler's own login
     * can do neither, so a stolen reconciler credential writes no transaction marker.
     */
    @Test
    void onlyTheRepairsLoginDescribesAndAbortsAnotherProducersTransaction() throws Exception {
        TopicPartition partition = new TopicPartition(Topic.ORDERS_UNIQUE.topicName(), 7);
        Properties transactional = KafkaClients.producer(INFRA.addresses().kafka(), "acl-repair-test");
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "acl-repair-test-" + System.nanoTime());
        try (KafkaProducer<String, byte[]> open = new KafkaProducer<>(transactional);
                Admin reconciler = Admin.create(KafkaClients.admin(
                        INFRA.addressesFor(KafkaPrincipal.RECONCILER).kafka()));
                Admin repair = Admin.create(KafkaClients.admin(
                        INFRA.addressesFor(KafkaPrincipal.TRANSACTION_REPAIR).kafka()))) {
            open.initTransactions();
            open.beginTransaction();
            open.send(new ProducerRecord<>(partition.topic(), partition.partition(), "open", new byte[] {1})).get();

            assertThatThrownBy(() -> reconciler
                            .describeProducers(List.of(partition))
                            .all()
                            .get(REFUSAL.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            ProducerState producer = repair
                    .describeProducers(List.of(partition))
                    .partitionResult(partition)
                    .get(REFUSAL.toSeconds(), TimeUnit.SECONDS)
                    .activeProducers()
                    .stream()
                    .filter(state -> state.currentTransactionStartOffset().isPresent())
                    .findFirst()
                    .orElseThrow();
            AbortTransactionSpec abort = new AbortTransactionSpec(
                    partition,
                    producer.producerId(),
                    (short) producer.producerEpoch(),
                    producer.coordinatorEpoch().orElse(-1));
            assertThatThrownBy(
                            () -> reconciler.abortTransaction(abort).all().get(REFUSAL.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);

            repair.abortTransaction(abort).all().get(REFUSAL.toSeconds() * 6, TimeUnit.SECONDS);

            assertThat(repair.describeProducers(List.of(partition))
                            .partitionResult(partition)
                            .get()
                            .activeProducers())
                    .noneMatch(state -> state.producerId() == producer.producerId()
                            && state.currentTransactionStartOffset().isPresent());
        }
    }

    private static KafkaProducer<String, byte[]> producer(KafkaAccess kafka) {
        Properties props = KafkaClients.producer(kafka, "acl-test");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) REFUSAL.toMillis());
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) REFUSAL.toMillis());
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REFUSAL.toMillis() - 1_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return new KafkaProducer<>(props);
    }

    private static void send(
            KafkaProducer<String, byte[]> producer,
            org.apache.kafka.clients.producer.ProducerRecord<String, byte[]> record)
            throws ExecutionException, InterruptedException {
        producer.send(record).get();
    }

    private static OrderRequested order() {
        return OrderRequested.of(UUID.randomUUID().toString(), 1L, "acl-test", 1, Instant.now());
    }
}
