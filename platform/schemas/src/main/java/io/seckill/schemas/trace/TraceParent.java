package io.seckill.schemas.trace;

import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A W3C Trace Context {@code traceparent} (version 00): the trace an order belongs to from the buyer's request to its
 * last event, and the span that handed it on. The ingress takes the caller's or starts one; the outbox row, every
 * Kafka record about the order (header {@value #HEADER}, the name OpenTelemetry's Kafka propagation uses) and the log
 * lines carry it, so one trace id finds an order's whole path.
 */
public record TraceParent(String traceId, String spanId, String flags) {

    public static final String HEADER = "traceparent";
    private static final Pattern VALID = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final String INVALID_TRACE = "0".repeat(32);
    private static final String INVALID_SPAN = "0".repeat(16);
    private static final String SAMPLED = "01";
    private static final HexFormat HEX = HexFormat.of();

    /**
     * A {@code traceparent} as the standard reads it; empty when absent, malformed or all zeros (then a new trace
     * starts).
     */
    public static Optional<TraceParent> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        var match = VALID.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!match.matches() || match.group(1).equals(INVALID_TRACE) || match.group(2).equals(INVALID_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(new TraceParent(match.group(1), match.group(2), match.group(3)));
    }

    /** A new trace, sampled. */
    public static TraceParent start() {
        return new TraceParent(random(16), random(8), SAMPLED);
    }

    /** The caller's trace continued by a span of ours, or a new trace when the caller sent none that is valid. */
    public static TraceParent continuing(String callerValue) {
        return parse(callerValue).map(TraceParent::child).orElseGet(TraceParent::start);
    }

    /** A span of this trace whose parent is this one. */
    public TraceParent child() {
        return new TraceParent(traceId, random(8), flags);
    }

    /**
     * Random as the standard asks, not secret: ids are made on the buy path, where a shared secure generator would
     * contend.
     */
    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(value);
        return HEX.formatHex(value);
    }

    @Override
    public String toString() {
        return "00-" + traceId + "-" + spanId + "-" + flags;
    }
}
