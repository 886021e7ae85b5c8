package io.seckill.runtime;

import io.seckill.config.Env;
import java.util.OptionalInt;

/**
 * How the catalogued topics are laid out when a service creates them: SECKILL_TOPIC_PARTITIONS (12),
 * SECKILL_TOPIC_REPLICATION_FACTOR (3 when the cluster has three brokers or more, else one per broker) and
 * SECKILL_TOPIC_MIN_INSYNC_REPLICAS (one fewer than the factor, at least 1). With 3 and 2, an order a producer was told
 * is written (acks=all) is on two brokers at least, and a partition keeps taking writes with one broker down; a single
 * development broker keeps 1 and 1.
 * @param replicationFactor empty: chosen from the cluster's size when the topics are created
 * @param minInsyncReplicas empty: one fewer than the factor, at least 1
 */
public record TopicLayout(int partitions, OptionalInt replicationFactor, OptionalInt minInsyncReplicas) {

    public static final String PARTITIONS = "SECKILL_TOPIC_PARTITIONS";
    public static final String REPLICATION_FACTOR = "SECKILL_TOPIC_REPLICATION_FACTOR";
    public static final String MIN_INSYNC_REPLICAS = "SECKILL_TOPIC_MIN_INSYNC_REPLICAS";
    /**
     * The factor a cluster that allows it gets: one broker down for maintenance and one failing still loses nothing.
     */
    static final int PREFERRED_FACTOR = 3;

    public TopicLayout {
        if (partitions < 1) {
            throw new IllegalArgumentException(PARTITIONS + " must be at least 1, was " + partitions);
        }
        if (replicationFactor.isPresent() && replicationFactor.getAsInt() < 1) {
            throw new IllegalArgumentException(
                    REPLICATION_FACTOR + " must be at least 1, was " + replicationFactor.getAsInt());
        }
        if (minInsyncReplicas.isPresent() && minInsyncReplicas.getAsInt() < 1) {
            throw new IllegalArgumentException(
                    MIN_INSYNC_REPLICAS + " must be at least 1, was " + minInsyncReplicas.getAsInt());
        }
        if (replicationFactor.isPresent()
                && minInsyncReplicas.isPresent()
                && minInsyncReplicas.getAsInt() > replicationFactor.getAsInt()) {
            throw new IllegalArgumentException(MIN_INSYNC_REPLICAS + " (" + minInsyncReplicas.getAsInt()
                    + ") must not exceed " + REPLICATION_FACTOR + " (" + replicationFactor.getAsInt()
                    + "): no write could ever be acknowledged");
        }
    }

    /** {@code partitions} partitions, the replication chosen from the cluster's size. */
    public static TopicLayout of(int partitions) {
        return new TopicLayout(partitions, OptionalInt.empty(), OptionalInt.empty());
    }

    public static TopicLayout from(Env env) {
        return new TopicLayout(
                env.integer(PARTITIONS, 12), optional(env, REPLICATION_FACTOR), optional(env, MIN_INSYNC_REPLICAS));
    }

    private static OptionalInt optional(Env env, String name) {
        return env.string(name, "").isBlank() ? OptionalInt.empty() : OptionalInt.of(env.integer(name, 0));
    }

    /**
     * The replication on a cluster of {@code brokers}.
     * @throws IllegalStateException when the factor asked for needs more brokers than the cluster has, or the minimum
     *         in sync asked for exceeds the factor
     */
    public Replication replicationOn(int brokers) {
        int factor = replicationFactor.orElse(Math.min(PREFERRED_FACTOR, brokers));
        if (factor > brokers) {
            throw new IllegalStateException(
                    REPLICATION_FACTOR + "=" + factor + " needs " + factor + " brokers; the cluster has " + brokers);
        }
        int minInsync = minInsyncReplicas.orElse(Math.max(1, factor - 1));
        if (minInsync > factor) {
            throw new IllegalStateException(MIN_INSYNC_REPLICAS + "=" + minInsync + " exceeds the replication factor "
                    + factor + ": no write could ever be acknowledged");
        }
        return new Replication(factor, minInsync);
    }

    /** The replication the topics are created with. */
    public record Replication(int factor, int minInsync) {
    }
}
