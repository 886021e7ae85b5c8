package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.KafkaAcls;
import io.seckill.schemas.kafka.Topic;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
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

        StringWriter out = new StringWriter();
        int exit = apply(out, "--apply");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("applied ").contains("create: User:seckill-ingress ALLOW WRITE on TOPIC")
                .doesNotContain(operator.security().sasl().orElseThrow().password());
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(this::ingressWritesAnOrderRequest);
    }

    /**
     * A cluster set up by an earlier release keeps no right this one took away: the reconciler's old cluster-wide
     * rights are shown by a dry run (and kept), then deleted by the apply, while the rights it keeps stay.
     */
    @Test
    void applyDeletesTheBindingsTheCatalogueNoLongerHas() throws Exception {
        String reconciler = "User:" + KafkaPrincipal.RECONCILER.user();
        List<AclBinding> old = List.of(
                new AclBinding(
                        new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                        new AccessControlEntry(reconciler, "*", AclOperation.CLUSTER_ACTION, AclPermissionType.ALLOW)),
                new AclBinding(
                        new ResourcePattern(ResourceType.TOPIC, "*", PatternType.LITERAL),
                        new AccessControlEntry(reconciler, "*", AclOperation.READ, AclPermissionType.ALLOW)),
                new AclBinding(
                        new ResourcePattern(ResourceType.TRANSACTIONAL_ID, "*", PatternType.LITERAL),
                        new AccessControlEntry(reconciler, "*", AclOperation.WRITE, AclPermissionType.ALLOW)));
        assertThat(apply(new StringWriter(), "--apply")).isZero();
        try (Admin admin = Admin.create(INFRA.addresses().kafka().clientProperties())) {
            admin.createAcls(old).all().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> reconcilersBindings(admin).containsAll(old));

            StringWriter dryRun = new StringWriter();
            assertThat(apply(dryRun, "--dry-run")).isZero();
            assertThat(dryRun.toString().lines())
                    .contains("would delete: User:seckill-reconciler ALLOW CLUSTER_ACTION on CLUSTER 'kafka-cluster'")
                    .contains("would delete: User:seckill-reconciler ALLOW READ on TOPIC '*'")
                    .contains("would delete: User:seckill-reconciler ALLOW WRITE on TRANSACTIONAL_ID '*'")
                    .noneMatch(line -> line.startsWith("would create: "));
            assertThat(reconcilersBindings(admin)).as("a dry run changes nothing").containsAll(old);

            StringWriter applied = new StringWriter();
            assertThat(apply(applied, "--apply")).isZero();
            assertThat(applied.toString().lines())
                    .contains("delete: User:seckill-reconciler ALLOW CLUSTER_ACTION on CLUSTER 'kafka-cluster'")
                    .anyMatch(line -> line.endsWith("(0 created, 3 deleted)"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(reconcilersBindings(admin))
                    .doesNotContainAnyElementsOf(old)
                    .containsAll(KafkaAcls.of(KafkaPrincipal.RECONCILER, KafkaGroups.from(new Env(Map.of())))));
        }
    }

    private static Set<AclBinding> reconcilersBindings(Admin admin) throws Exception {
        return Set.copyOf(admin.describeAcls(new AclBindingFilter(
                        ResourcePatternFilter.ANY,
                        new AccessControlEntryFilter(
                                "User:" + KafkaPrincipal.RECONCILER.user(),
                                null,
                                AclOperation.ANY,
                                AclPermissionType.ANY)))
                .values().get(30, TimeUnit.SECONDS));
    }

    /** The command, as the operator, on this JVM's broker. */
    private static int apply(StringWriter out, String... args) {
        KafkaAccess operator = INFRA.addresses().kafka();
        KafkaSecurity.Sasl login = operator.security().sasl().orElseThrow();
        return new CommandLine(new KafkaAclsCommand(Map.of(
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
                .execute(args);
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
