package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.config.DeploymentMode;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.Topic;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The operator's command: the catalogue as kafka-acls.sh commands, and applied for real to a broker that lost an ACL.
 */
class KafkaAclsCommandIT {

    private static final LocalInfrastructure INFRA = LocalInfrastructure.get();

    @Test
    void printsOneKafkaAclsCommandPerGrant() {
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new KafkaAclsCommand(Map.of())).setOut(new PrintWriter(out)).execute();

        assertThat(exit).isZero();
        assertThat(out.toString().lines())
                .contains("kafka-acls.sh --bootstrap-server \"$KAFKA_BOOTSTRAP\" --command-config"
                        + " \"$KAFKA_ADMIN_CONFIG\" --add --allow-principal 'User:seckill-ingress' --operation"
                        + " Write --topic 'order-requests'")
                .contains("kafka-acls.sh --bootstrap-server \"$KAFKA_BOOTSTRAP\" --command-config"
                        + " \"$KAFKA_ADMIN_CONFIG\" --add --allow-principal 'User:seckill-stream-processor'"
                        + " --operation Write --transactional-id 'seckill-stream-processor-'"
                        + " --resource-pattern-type prefixed")
                .noneMatch(line -> line.contains("User:seckill-ingress")
                        && line.contains("order-lifecycle")
                        && line.contains("Write"));
    }

    @Test
    void applyGivesBackAGrantTheBrokerLost() throws Exception {
        KafkaAccess operator = INFRA.addresses().kafka();
        KafkaClients.ensureTopics(operator, TopicLayout.of(12), KafkaClients.START_TIMEOUT);
        AclBindingFilter ingressWrites = new AclBindingFilter(
                ResourcePatternFilter.ANY,
                new AccessControlEntryFilter(
                        "User:" + KafkaPrincipal.INGRESS.user(), null, AclOperation.WRITE, AclPermissionType.ALLOW));
        try (Admin admin = Admin.create(operator.clientProperties())) {
            assertThat(admin.deleteAcls(List.of(ingressWrites)).all().get(30, TimeUnit.SECONDS)).isNotEmpty();
        }
        // The broker applies ACL changes from its metadata log, a moment after the controller took them.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThatThrownBy(this::ingressWritesAnOrderRequest)
                        .satisfies(refused -> assertThat(refused.getCause())
                                // With no topic to write, even the idempotent producer's id is refused (a cluster
                                // permission).
                                .isInstanceOfAny(
                                        TopicAuthorizationException.class, ClusterAuthorizationException.class)));

        KafkaSecurity.Sasl login = operator.security().sasl().orElseThrow();
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new KafkaAclsCommand(Map.of(
                        DeploymentMode.SETTING,
                        "development",
                        "SECKILL_KAFKA_BOOTSTRAP",
                        operator.bootstrap(),
                        KafkaSecurity.PROTOCOL,
                        operator.security().protocol().name(),
                        KafkaSecurity.USER,
                        login.user(),
                        KafkaSecurity.PASSWORD,
                        login.password())))
                .setOut(new PrintWriter(out))
                .execute("--apply");

        assertThat(exit).isZero();
        assertThat(out.toString()).startsWith("applied ").doesNotContain(login.password());
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(this::ingressWritesAnOrderRequest);
    }

    private void ingressWritesAnOrderRequest() throws Exception {
        Properties props =
                KafkaClients.producer(INFRA.addressesFor(KafkaPrincipal.INGRESS).kafka(), "acl-command-test");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 9_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<String, byte[]> ingress = new KafkaProducer<>(props)) {
            ingress.send(Topic.ORDER_REQUESTS.record(
                            1L, OrderRequested.of(UUID.randomUUID().toString(), 1L, "acl-command", 1, Instant.now())))
                    .get();
        }
    }
}
