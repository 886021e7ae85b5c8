package io.seckill.schemas.events;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serde for one event type; a record that does not decode and validate is a {@link SerializationException}. */
public final class EventSerde<T extends VersionedEvent> implements Serde<T> {

    private final Class<T> type;

    public EventSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, event) -> event == null ? null : EventJson.encode(event);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            try {
                return EventJson.decode(bytes, type);
            } catch (InvalidEventException e) {
                throw new SerializationException(e.getMessage(), e);
            }
        };
    }
}
