package io.seckill.schemas.kafka;

import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaPrincipal;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACL catalogue: what each service's principal may do on the broker, and nothing more (the broker denies whatever
 * no ACL allows). Every service may describe and create the catalogued topics (each creates what is missing at start).
 * Beyond that: the ingress writes {@code order-requests} (its fast path to the outbox's relay); the stream-processor
 * reads it and writes the unique orders and dead letters, with its own group, internal topics and transactional ids;
 * the db-sink reads the unique orders and writes results, compensations and dead letters; the reconciler reads results,
 * compensations, lifecycle events and dead letters, and writes {@code order-requests} and {@code order-lifecycle} (the
 * outbox relays, expiries) and dead letters, and may look at every group's lag; the reconciler's hanging-transaction
 * repair, under a principal of its own, may look at the producers and transactions on every partition it watches and
 * abort one (which Kafka grants only with the cluster's ClusterAction): no other job holds that login. The operator's
 * principal is a super user of the broker.
 */
public final class KafkaAcls {

    private KafkaAcls() {
    }

    /** Every service's ACLs. */
    public static List<AclBinding> all(KafkaGroups groups) {
        List<AclBinding> all = new ArrayList<>();
        for (KafkaPrincipal principal : KafkaPrincipal.values()) {
            all.addAll(of(principal, groups));
        }
        return all;
    }

    /** The ACLs of one principal (none for the operator, a super user). */
    public static List<AclBinding> of(KafkaPrincipal principal, KafkaGroups groups) {
        Grants grants = new Grants(principal);
        switch (principal) {
            case INGRESS -> {
                grants.catalogue();
                grants.topic(Topic.ORDER_REQUESTS, AclOperation.WRITE);
                // The operator page's consumer lag: every group's committed offsets, including the stream-processor's
                // internal topics'. Descriptions only: no record is read.
                grants.literal(ResourceType.GROUP, ResourcePattern.WILDCARD_RESOURCE, AclOperation.DESCRIBE);
                grants.prefixed(ResourceType.TOPIC, groups.streamsApplicationId() + "-", AclOperation.DESCRIBE);
            }
            case STREAM_PROCESSOR -> {
                grants.catalogue();
                grants.topic(Topic.ORDER_REQUESTS, AclOperation.READ);
                grants.topic(Topic.ORDERS_UNIQUE, AclOperation.WRITE);
                grants.topic(Topic.DEAD_LETTERS, AclOperation.WRITE);
                grants.literal(ResourceType.GROUP, groups.streamsApplicationId(), AclOperation.READ);
                grants.prefixed(ResourceType.TOPIC, groups.streamsApplicationId() + "-", AclOperation.ALL);
                grants.prefixed(ResourceType.TRANSACTIONAL_ID, groups.streamsApplicationId() + "-", AclOperation.WRITE);
                grants.prefixed(
                        ResourceType.TRANSACTIONAL_ID, groups.streamsApplicationId() + "-", AclOperation.DESCRIBE);
            }
            case DB_SINK -> {
                grants.catalogue();
                grants.topic(Topic.ORDERS_UNIQUE, AclOperation.READ);
                grants.literal(ResourceType.GROUP, groups.sinkGroup(), AclOperation.READ);
                grants.topic(Topic.ORDER_RESULTS, AclOperation.WRITE);
                grants.topic(Topic.STOCK_COMPENSATIONS, AclOperation.WRITE);
                grants.topic(Topic.DEAD_LETTERS, AclOperation.WRITE);
            }
            case RECONCILER -> {
                grants.catalogue();
                for (Topic<?> read : List.of(
                        Topic.ORDER_RESULTS, Topic.STOCK_COMPENSATIONS, Topic.ORDER_LIFECYCLE, Topic.DEAD_LETTERS)) {
                    grants.topic(read, AclOperation.READ);
                }
                grants.prefixed(ResourceType.GROUP, KafkaGroups.RECONCILER_GROUP_PREFIX, AclOperation.READ);
                for (Topic<?> written : List.of(Topic.ORDER_REQUESTS, Topic.ORDER_LIFECYCLE, Topic.DEAD_LETTERS)) {
                    grants.topic(written, AclOperation.WRITE);
                }
                // The figures: every group's lag, the stream-processor's internal topics' included. Descriptions only.
                grants.literal(ResourceType.GROUP, ResourcePattern.WILDCARD_RESOURCE, AclOperation.DESCRIBE);
                grants.prefixed(ResourceType.TOPIC, groups.streamsApplicationId() + "-", AclOperation.DESCRIBE);
            }
            case TRANSACTION_REPAIR -> {
                // The producers on every partition it watches (DescribeProducers wants Read on the topic): the
                // catalogued topics, the stream-processor's internal ones and the consumer offsets, where transactional
                // offset commits land (a transaction left hanging there blocks every read_committed group's committed
                // offsets).
                for (Topic<?> topic : Topic.all()) {
                    grants.topic(topic, AclOperation.DESCRIBE);
                    grants.topic(topic, AclOperation.READ);
                }
                grants.prefixed(ResourceType.TOPIC, groups.streamsApplicationId() + "-", AclOperation.DESCRIBE);
                grants.prefixed(ResourceType.TOPIC, groups.streamsApplicationId() + "-", AclOperation.READ);
                grants.literal(
                        ResourceType.TOPIC,
                        org.apache.kafka.common.internals.Topic.GROUP_METADATA_TOPIC_NAME,
                        AclOperation.DESCRIBE);
                grants.literal(
                        ResourceType.TOPIC,
                        org.apache.kafka.common.internals.Topic.GROUP_METADATA_TOPIC_NAME,
                        AclOperation.READ);
                // Every coordinator's transactions, to tell an abandoned one from a live one; and the abort's markers.
                grants.literal(ResourceType.TRANSACTIONAL_ID, ResourcePattern.WILDCARD_RESOURCE, AclOperation.DESCRIBE);
                grants.literal(ResourceType.CLUSTER, Resource.CLUSTER_NAME, AclOperation.CLUSTER_ACTION);
            }
            case OPERATOR -> {
                // a super user of the broker (super.users): it creates the principals and applies these ACLs
            }
        }
        return grants.bindings.stream().distinct().toList();
    }

    private static final class Grants {
        private final String principal;
        private final List<AclBinding> bindings = new ArrayList<>();

        Grants(KafkaPrincipal principal) {
            this.principal = "User:" + principal.user();
        }

        void catalogue() {
            for (Topic<?> topic : Topic.all()) {
                topic(topic, AclOperation.DESCRIBE);
                topic(topic, AclOperation.CREATE);
            }
        }

        void topic(Topic<?> topic, AclOperation operation) {
            literal(ResourceType.TOPIC, topic.topicName(), operation);
        }

        void literal(ResourceType type, String name, AclOperation operation) {
            add(new ResourcePattern(type, name, PatternType.LITERAL), operation);
        }

        void prefixed(ResourceType type, String prefix, AclOperation operation) {
            add(new ResourcePattern(type, prefix, PatternType.PREFIXED), operation);
        }

        private void add(ResourcePattern pattern, AclOperation operation) {
            bindings.add(new AclBinding(
                    pattern, new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW)));
        }
    }
}
