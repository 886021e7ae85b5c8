package io.seckill.baselines;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The baseline designs seckill is compared with, by the names their process takes on its command line. */
public enum Baseline {

    /** One MySQL transaction per buy request, answered after commit. */
    NAIVE("naive", "naive"),
    /** Redis Lua decrement, the order to Kafka answered before any durable record, a consumer writing MySQL. */
    REDIS_QUEUE("redis-queue", "rq");

    private final String label;
    private final String tablePrefix;

    Baseline(String label, String tablePrefix) {
        this.label = label;
        this.tablePrefix = tablePrefix;
    }

    public String label() {
        return label;
    }

    /** The tables this design keeps its stock and orders in. */
    public BaselineSql tables() {
        return new BaselineSql(tablePrefix);
    }

    /** @throws IllegalArgumentException naming the baselines there are, when {@code label} is none of them */
    public static Baseline of(String label) {
        return Arrays.stream(values()).filter(baseline -> baseline.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown baseline " + label + "; the baselines are "
                        + Arrays.stream(values()).map(Baseline::label).collect(Collectors.joining(", "))));
    }
}
