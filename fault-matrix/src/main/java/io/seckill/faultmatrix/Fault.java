package io.seckill.faultmatrix;

/**
 * A fault the matrix injects while a sale is taking orders, at a moment of its own: in the sale's first
 * second (a twentieth of the buyers answered) or while winners are still being accepted (a tenth);
 * {@link FaultInjector} does each.
 */
public enum Fault {
    KILL_STREAM_PROCESSOR("kill -9 one of two stream-processors, restarted 5 s later"),
    KILL_DB_SINK("kill -9 db-sink, restarted 5 s later"),
    KILL_RECONCILER("kill -9 reconciler, restarted 5 s later"),
    KILL_INGRESS("kill -9 ingress between reserve and commit, restarted 3 s later"),
    BROKER_KILLED("broker kill -9 and restarted (MySQL and Redis too: one process)"),
    MYSQL_RESTARTED("MySQL kill -9, started again by the servers"),
    BROKER_UNREACHABLE("broker unreachable 90 s (SIGSTOP)"),
    BROKER_STALLED_AT_START("broker stalled 75 s in the sale's first second (SIGSTOP)", 0.05),
    REDIS_FLUSHALL("Redis FLUSHALL"),
    REDIS_RESTARTED_EMPTY("Redis restarted without data"),
    MYSQL_STALLED("MySQL stalled 15 s (SIGSTOP)"),
    DUPLICATE_FLOOD("orders re-published 3x"),
    POISON_FLOOD("poison flood (1,000 records)");

    private static final double WHILE_WINNERS_ARE_ACCEPTED = 0.1;

    private final String description;
    private final double injectedAtShare;

    Fault(String description) {
        this(description, WHILE_WINNERS_ARE_ACCEPTED);
    }

    Fault(String description, double injectedAtShare) {
        this.description = description;
        this.injectedAtShare = injectedAtShare;
    }

    public String description() {
        return description;
    }

    /** The share of the row's buyers answered when the fault is injected. */
    double injectedAtShare() {
        return injectedAtShare;
    }
}
