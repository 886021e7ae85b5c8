package io.seckill.schemas.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** Header names on a dead-letter record: why it failed, where, and where it came from. */
public final class DeadLetterHeaders {

    public static final String REASON = "seckill.dlq.reason";
    public static final String EXCEPTION = "seckill.dlq.exception";
    public static final String STAGE = "seckill.dlq.stage";
    public static final String SOURCE_TOPIC = "seckill.dlq.source.topic";
    public static final String SOURCE_PARTITION = "seckill.dlq.source.partition";
    public static final String SOURCE_OFFSET = "seckill.dlq.source.offset";

    private DeadLetterHeaders() {
    }

    public static void describe(Headers headers, String stage, Throwable failure, String sourceTopic,
                                int sourcePartition, long sourceOffset) {
        put(headers, REASON, failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage());
        put(headers, EXCEPTION, failure.getClass().getName());
        put(headers, STAGE, stage);
        put(headers, SOURCE_TOPIC, sourceTopic);
        put(headers, SOURCE_PARTITION, Integer.toString(sourcePartition));
        put(headers, SOURCE_OFFSET, Long.toString(sourceOffset));
    }

    public static String read(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }
}
