package io.seckill.schemas.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * The header on an order an ingress sends while it warms up, before it serves buyers: an order of its hidden warm-up
 * sale (a SKU MySQL does not hold), sent so that the broker's produce, fetch and transaction paths, the
 * stream-processor's gate and the sink's decision have run before a sale's first order needs them. Every consumer
 * takes such a record through its own path as far as it can without changing state and then drops it: the gate
 * forwards it without remembering it, the sink decides it in a transaction it rolls back and publishes nothing.
 * A marked record changes nothing whoever wrote it, so the mark needs no proof.
 */
public final class WarmUpHeaders {

    public static final String WARM_UP = "seckill.warm-up";
    private static final byte[] VALUE = "1".getBytes(StandardCharsets.UTF_8);

    private WarmUpHeaders() {
    }

    /** Marks {@code headers} as a warm-up record's. */
    public static void mark(Headers headers) {
        headers.add(WARM_UP, VALUE);
    }

    /** Whether a record with {@code headers} was sent to warm the pipeline up. */
    public static boolean marked(Headers headers) {
        return headers.lastHeader(WARM_UP) != null;
    }
}
