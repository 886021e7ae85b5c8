package io.seckill.baselines;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The baseline designs seckill is compared with, by the names their process takes on its command line. */
public enum Baseline {

    /** One MySQL transaction per buy request, answered after commit. */
    NAIVE("naive"),
    /** Redis Lua decrement, the order to Kafka answered before any durable record, a consumer writing MySQL. */
    REDIS_QUEUE("redis-queue"),
    /**
     * The physical limit every design is measured against: the same HTTP stack reading the same request, answering
     * every buy with the loser's 409 from memory; no store, no token, nothing sold.
     */
    NO_OP("no-op");

    private final String label;

    Baseline(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * The tables this design keeps its stock and orders in. @throws IllegalStateException for no-op, which keeps none
     */
    public BaselineSql tables() {
        return switch (this) {
            case NAIVE -> new BaselineSql("naive");
            case REDIS_QUEUE -> new BaselineSql("rq");
            case NO_OP -> throw new IllegalStateException("the no-op design keeps no tables");
        };
    }

    /** @throws IllegalArgumentException naming the baselines there are, when {@code label} is none of them */
    public static Baseline of(String label) {
        return Arrays.stream(values()).filter(baseline -> baseline.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown baseline " + label + "; the baselines are "
                        + Arrays.stream(values()).map(Baseline::label).collect(Collectors.joining(", "))));
    }
}
