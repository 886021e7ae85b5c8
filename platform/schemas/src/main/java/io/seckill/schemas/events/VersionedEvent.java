package io.seckill.schemas.events;

/** An event with a schema version and invariants that a decoder checks before anyone acts on it. */
public interface VersionedEvent {

    int schemaVersion();

    /** @throws InvalidEventException naming the first field that breaks the contract */
    void validate();
}
