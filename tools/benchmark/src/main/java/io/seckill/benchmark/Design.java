package io.seckill.benchmark;

import io.seckill.baselines.Baseline;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine;

/** The designs of the whole-sale comparison, by the names the command line and the report use. */
public enum Design {

    /** The product, as a user runs it: {@code bin/seckill all}. */
    SECKILL("seckill"),
    /** One MySQL transaction per buy request, answered after commit. */
    NAIVE("naive"),
    /** Redis Lua decrement, the order to Kafka answered before any durable record, a consumer writing MySQL. */
    REDIS_QUEUE("redis-queue"),
    /** The physical limit: the same HTTP stack answering every buy 409 from memory, nothing sold. */
    NO_OP("no-op");

    private final String label;

    Design(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Whether its buyer is answered only after the order is decided in MySQL: such a design has no drain (its answer is
     * its decision), and the decision may be seen before the answer arrives.
     */
    boolean answersAfterDeciding() {
        return switch (this) {
            case NAIVE -> true;
            case SECKILL, REDIS_QUEUE, NO_OP -> false;
        };
    }

    /** The baseline process this design runs as. @throws IllegalStateException for seckill, the product itself */
    Baseline baseline() {
        return switch (this) {
            case SECKILL -> throw new IllegalStateException("seckill is the product (bin/seckill all), not a baseline");
            case NAIVE -> Baseline.NAIVE;
            case REDIS_QUEUE -> Baseline.REDIS_QUEUE;
            case NO_OP -> Baseline.NO_OP;
        };
    }

    /** @throws IllegalArgumentException naming the designs there are, when {@code label} is none of them */
    public static Design of(String label) {
        return Arrays.stream(values()).filter(design -> design.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown design " + label + "; the designs are "
                        + Arrays.stream(values()).map(Design::label).collect(Collectors.joining(", "))));
    }

    /** Reads {@code --designs seckill,naive} on the command line. */
    static final class Converter implements CommandLine.ITypeConverter<Design> {

        @Override
        public Design convert(String label) {
            return of(label);
        }
    }
}
