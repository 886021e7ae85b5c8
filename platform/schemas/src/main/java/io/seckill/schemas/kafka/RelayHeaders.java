package io.seckill.schemas.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * The header the outbox relay puts on an order it sends again: the order was not decided within the
 * relay's grace, so whatever the stream-processor's gate remembers of it (a first copy whose forward
 * was lost, say), this copy must reach the sink, which is idempotent by order id.
 */
public final class RelayHeaders {

    /** How often the relay sent the order before this copy, as decimal text. */
    public static final String RESENT = "seckill.relay.resent";

    private RelayHeaders() {
    }

    /** Marks {@code headers} as those of the relay's send number {@code attemptsBefore} + 1. */
    public static void markResent(Headers headers, int attemptsBefore) {
        headers.add(RESENT, Integer.toString(attemptsBefore).getBytes(StandardCharsets.UTF_8));
    }

    /** Whether a record with {@code headers} is a re-send of the relay. */
    public static boolean resent(Headers headers) {
        return headers.lastHeader(RESENT) != null;
    }
}
