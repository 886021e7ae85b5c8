package io.seckill.reconciler.jobs;

/**
 * One SKU as both stores see it. At rest, {@code redisStock + pendingReservations == mysqlStock};
 * {@link #drift()} is the difference, positive when Redis would sell more than MySQL holds.
 * {@code recordedUndecided}: units of orders MySQL recorded (open outbox rows) and has not decided;
 * {@code returning}: units MySQL holds that Redis has not got yet (taken back from cancelled or expired
 * orders, or added as stock).
 */
public record SkuFigures(
        long skuId,
        long mysqlStock,
        long recordedUndecided,
        long returning,
        long redisStock,
        long pendingReservations) {

    public long drift() {
        return redisStock + pendingReservations - mysqlStock;
    }

    /** Nothing in flight in either store: a difference now is not an order on its way. */
    public boolean atRest() {
        return pendingReservations == 0 && recordedUndecided == 0 && returning == 0;
    }
}
