package io.seckill.faultmatrix;

import java.util.List;

/**
 * A fault the matrix injects while a sale is taking orders, at each of its {@link Moment}s (a row per
 * moment); {@link FaultInjector} does each. The broker stalls are long enough to be a row per moment
 * of their own.
 */
public enum Fault {
    KILL_STREAM_PROCESSOR("kill -9 one of two stream-processors, restarted 5 s later"),
    KILL_DB_SINK("kill -9 db-sink, restarted 5 s later"),
    KILL_RECONCILER("kill -9 reconciler, restarted 5 s later"),
    KILL_INGRESS("kill -9 ingress between reserve and commit, restarted 3 s later"),
    BROKER_KILLED("broker kill -9 and restarted (MySQL and Redis too: one process)"),
    MYSQL_RESTARTED("MySQL kill -9, started again by the servers"),
    BROKER_UNREACHABLE("broker unreachable 90 s (SIGSTOP)"),
    BROKER_STALLED_AT_START("broker stalled 75 s (SIGSTOP)"),
    REDIS_FLUSHALL("Redis FLUSHALL"),
    REDIS_RESTARTED_EMPTY("Redis restarted without data"),
    MYSQL_STALLED("MySQL stalled 15 s (SIGSTOP)"),
    DUPLICATE_FLOOD("orders re-published 3x"),
    POISON_FLOOD("poison flood (1,000 records)"),
    // Each repair job with the component it repairs paused (SIGSTOP) around the moment it acts.
    INGRESS_PAUSED_PAST_SWEEP(
            "SIGSTOP ingress between reserve and commit 10 s: the leak sweep settles its reservations"),
    SINK_PAUSED_PAST_RELAY_GRACE("SIGSTOP db-sink 8 s: the relay re-sends its undecided orders"),
    STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND(
            "SIGSTOP one of two stream-processors 35 s: its open transaction outlives the hanging bound"),
    REDIS_PAUSED_ACROSS_DRIFT_CHECKS("SIGSTOP Redis 5 s: drift checks and settlements straddle it"),
    REDIS_PAUSED_DURING_REBUILD("Redis rebuild requested, Redis SIGSTOP 3 s as it runs"),
    RECONCILER_PAUSED("SIGSTOP reconciler 8 s: its jobs stopped mid-step, locks held"),
    REDIS_PRIMARY_KILLED("Redis Cluster: the biggest SKU's primary kill -9, its replica promoted"),
    BUCKETED_PRIMARY_KILLED(
            "Redis Cluster, one SKU in 8 buckets: its layout's primary kill -9 as the last units move between buckets,"
                    + " its replica promoted"),
    BUCKETED_FLUSHALL("Redis Cluster, one SKU in 8 buckets: every primary FLUSHALL, the SKU rebuilt into its buckets"),
    KAFKA_BROKER_KILLED("Kafka of three brokers: one (not the controller) kill -9, started again 1 s later"),
    KAFKA_CONTROLLER_KILLED("Kafka of three brokers: the active controller kill -9, started again 1 s later");

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The servers it needs. */
    Servers servers() {
        return switch (this) {
            case REDIS_PRIMARY_KILLED,
                    BUCKETED_PRIMARY_KILLED,
                    BUCKETED_FLUSHALL,
                    KAFKA_BROKER_KILLED,
                    KAFKA_CONTROLLER_KILLED -> Servers.CLUSTERS;
            case KILL_STREAM_PROCESSOR,
                    KILL_DB_SINK,
                    KILL_RECONCILER,
                    KILL_INGRESS,
                    BROKER_KILLED,
                    MYSQL_RESTARTED,
                    BROKER_UNREACHABLE,
                    BROKER_STALLED_AT_START,
                    REDIS_FLUSHALL,
                    REDIS_RESTARTED_EMPTY,
                    MYSQL_STALLED,
                    DUPLICATE_FLOOD,
                    POISON_FLOOD,
                    INGRESS_PAUSED_PAST_SWEEP,
                    SINK_PAUSED_PAST_RELAY_GRACE,
                    STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND,
                    REDIS_PAUSED_ACROSS_DRIFT_CHECKS,
                    REDIS_PAUSED_DURING_REBUILD,
                    RECONCILER_PAUSED -> Servers.SINGLE;
        };
    }

    /** The moments of the sale it is injected at, a row each. */
    List<Moment> moments() {
        return switch (this) {
            case BROKER_UNREACHABLE -> List.of(Moment.TAIL);
            // Mid-burst: the reservations the dead primary took are the ones its replica may lack.
            // Mid-burst too: the partitions the dead broker led take writes from other leaders while the orders pour
            // in.
            case REDIS_PRIMARY_KILLED, BUCKETED_FLUSHALL, KAFKA_BROKER_KILLED, KAFKA_CONTROLLER_KILLED ->
                List.of(Moment.FIRST_SECOND);
            // Units move between buckets once the first of them run empty: near the end of the sale.
            case BUCKETED_PRIMARY_KILLED -> List.of(Moment.TAIL);
            case BROKER_STALLED_AT_START -> List.of(Moment.FIRST_SECOND);
            // A repair acts on what the sale left behind, whichever moment paused its component.
            case INGRESS_PAUSED_PAST_SWEEP,
                    SINK_PAUSED_PAST_RELAY_GRACE,
                    STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND,
                    REDIS_PAUSED_ACROSS_DRIFT_CHECKS,
                    REDIS_PAUSED_DURING_REBUILD,
                    RECONCILER_PAUSED -> List.of(Moment.TAIL);
            case KILL_STREAM_PROCESSOR,
                    KILL_DB_SINK,
                    KILL_RECONCILER,
                    KILL_INGRESS,
                    BROKER_KILLED,
                    MYSQL_RESTARTED,
                    REDIS_FLUSHALL,
                    REDIS_RESTARTED_EMPTY,
                    MYSQL_STALLED,
                    DUPLICATE_FLOOD,
                    POISON_FLOOD -> List.of(Moment.values());
        };
    }

    /** The sale a row of it runs: each SKU's stock, and the buckets asked for each (null: the ingress chooses). */
    SaleShape sale() {
        return switch (this) {
            case BUCKETED_PRIMARY_KILLED, BUCKETED_FLUSHALL -> SaleShape.ONE_HOT_SKU;
            case KILL_STREAM_PROCESSOR,
                    KILL_DB_SINK,
                    KILL_RECONCILER,
                    KILL_INGRESS,
                    BROKER_KILLED,
                    MYSQL_RESTARTED,
                    BROKER_UNREACHABLE,
                    BROKER_STALLED_AT_START,
                    REDIS_FLUSHALL,
                    REDIS_RESTARTED_EMPTY,
                    MYSQL_STALLED,
                    DUPLICATE_FLOOD,
                    POISON_FLOOD,
                    INGRESS_PAUSED_PAST_SWEEP,
                    SINK_PAUSED_PAST_RELAY_GRACE,
                    STREAM_PROCESSOR_PAUSED_PAST_HANGING_BOUND,
                    REDIS_PAUSED_ACROSS_DRIFT_CHECKS,
                    REDIS_PAUSED_DURING_REBUILD,
                    RECONCILER_PAUSED,
                    REDIS_PRIMARY_KILLED,
                    KAFKA_BROKER_KILLED,
                    KAFKA_CONTROLLER_KILLED -> SaleShape.THREE_SKUS;
        };
    }

    /** A row's sale: the SKUs' stocks in order, and how many buckets each asks for (null: the ingress chooses). */
    record SaleShape(List<Integer> stocks, Integer stockBuckets) {
        static final SaleShape THREE_SKUS = new SaleShape(List.of(300, 150, 50), null);
        static final SaleShape ONE_HOT_SKU = new SaleShape(List.of(500), 8);
    }
}
