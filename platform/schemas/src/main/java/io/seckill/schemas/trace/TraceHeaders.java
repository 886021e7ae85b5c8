package io.seckill.schemas.trace;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** The {@link TraceParent} of a Kafka record, in its {@value TraceParent#HEADER} header. */
public final class TraceHeaders {

    private TraceHeaders() {
    }

    /**
     * The record's trace; empty when it carries none (sent before traces existed, or by a producer that does not
     * trace).
     */
    public static Optional<TraceParent> of(Headers headers) {
        Header header = headers.lastHeader(TraceParent.HEADER);
        return header == null
                ? Optional.empty()
                : TraceParent.parse(new String(header.value(), StandardCharsets.UTF_8));
    }

    /** Sets the record's trace to {@code trace}, replacing any it had. */
    public static void put(Headers headers, TraceParent trace) {
        headers.remove(TraceParent.HEADER);
        headers.add(TraceParent.HEADER, trace.toString().getBytes(StandardCharsets.UTF_8));
    }
}
