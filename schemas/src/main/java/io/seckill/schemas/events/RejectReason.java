package io.seckill.schemas.events;

/** Why the database rejected an order that Redis had reserved. */
public enum RejectReason {
    /** MySQL had less stock than Redis promised (drift, a lost Redis, a manual correction). */
    SOLD_OUT,
    /** The database's own per-user guard refused it. */
    PURCHASE_LIMIT_REACHED,
    /** The SKU does not exist in MySQL. */
    UNKNOWN_SKU
}
