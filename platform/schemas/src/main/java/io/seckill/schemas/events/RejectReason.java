package io.seckill.schemas.events;

/** Why an order that Redis had reserved ended REJECTED. */
public enum RejectReason {
    /** MySQL had less stock than Redis promised (drift, a lost Redis, a manual correction). */
    SOLD_OUT,
    /** The database's own per-user guard refused it. */
    PURCHASE_LIMIT_REACHED,
    /** The SKU does not exist in MySQL. */
    UNKNOWN_SKU,
    /** Its record could not be processed and went to the dead-letter topic; MySQL never decided it. */
    DEAD_LETTERED,
    /**
     * MySQL never recorded it: it was reserved in Redis, but its outbox row was not written, and a fence
     * now keeps it from ever being written. The reservation went back.
     */
    NOT_RECORDED,
    /**
     * The pipeline never decided it: the outbox relay sent it as often as it may
     * ({@code SECKILL_RELAY_MAX_ATTEMPTS}) and gave up. The reservation went back.
     */
    UNDELIVERED,
    /**
     * MySQL recorded it outside its sale's window (by MySQL's clock, give or take
     * {@code SECKILL_SALE_WINDOW_TOLERANCE_MS}): the ingress that took it had a wrong clock.
     */
    OUTSIDE_SALE_WINDOW
}
