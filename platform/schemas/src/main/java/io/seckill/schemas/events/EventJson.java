package io.seckill.schemas.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one JSON codec for events. Unknown fields are tolerated so that a newer producer does not
 * poison an older consumer. Optional fields (null) are left out; a missing required field reads as
 * null or zero and {@link VersionedEvent#validate()} rejects it by name.
 */
public final class EventJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

    private EventJson() {
    }

    public static byte[] encode(Object event) {
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + event.getClass().getSimpleName(), e);
        }
    }

    public static String encodeToString(Object event) {
        return new String(encode(event), StandardCharsets.UTF_8);
    }

    /** Decodes and validates; anything short of a valid event is an {@link InvalidEventException}. */
    public static <T extends VersionedEvent> T decode(byte[] bytes, Class<T> type) {
        if (bytes == null || bytes.length == 0) {
            throw new InvalidEventException("empty " + type.getSimpleName() + " record");
        }
        T event;
        try {
            event = MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new InvalidEventException(
                    "undecodable " + type.getSimpleName() + ": " + firstLine(e.getMessage()), e);
        }
        if (event == null) {
            throw new InvalidEventException("null " + type.getSimpleName() + " record");
        }
        event.validate();
        return event;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
