package io.seckill.faultmatrix;

/** A fault the matrix injects while a sale is taking orders; {@link FaultInjector} does each. */
public enum Fault {
    KILL_STREAM_PROCESSOR("kill -9 stream-processor, restarted 5 s later"),
    KILL_DB_SINK("kill -9 db-sink, restarted 5 s later"),
    KILL_RECONCILER("kill -9 reconciler, restarted 5 s later"),
    KILL_INGRESS("kill -9 ingress between reserve and commit, restarted 3 s later"),
    BROKER_KILLED("broker kill -9 and restarted (MySQL and Redis too: one process)"),
    MYSQL_RESTARTED("MySQL kill -9, started again by the servers"),
    BROKER_UNREACHABLE("broker unreachable 90 s (SIGSTOP)"),
    REDIS_FLUSHALL("Redis FLUSHALL"),
    REDIS_RESTARTED_EMPTY("Redis restarted without data"),
    MYSQL_STALLED("MySQL stalled 15 s (SIGSTOP)"),
    DUPLICATE_FLOOD("orders re-published 3x"),
    POISON_FLOOD("poison flood (1,000 records)");

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
