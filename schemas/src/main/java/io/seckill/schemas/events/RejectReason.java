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
    DEAD_LETTERED
}
