package io.seckill.config;

/**
 * Who a client is to Kafka: each service its own principal, so the broker's ACLs let each do only what it does; the
 * operator's principal administers topics, credentials and ACLs (and test harnesses stage records with it).
 */
public enum KafkaPrincipal {
    INGRESS("seckill-ingress"),
    STREAM_PROCESSOR("seckill-stream-processor"),
    DB_SINK("seckill-db-sink"),
    RECONCILER("seckill-reconciler"),
    /**
     * The reconciler's hanging-transaction repair alone: aborting another producer's transaction writes its markers,
     * which Kafka allows only with the cluster's ClusterAction, so this one right lives under a login no other job
     * holds.
     */
    TRANSACTION_REPAIR("seckill-transaction-repair"),
    OPERATOR("seckill-operator");

    private final String user;

    KafkaPrincipal(String user) {
        this.user = user;
    }

    /** The SASL user name, which is the principal's name in ACLs ({@code User:<name>}). */
    public String user() {
        return user;
    }
}
