package io.seckill.reconciler;

/**
 * One SKU as both stores see it. At rest, {@code redisStock + pendingReservations == mysqlStock};
 * {@link #drift()} is the difference, positive when Redis would sell more than MySQL holds.
 */
record SkuFigures(long skuId, long mysqlStock, long redisStock, long pendingReservations) {

    long drift() {
        return redisStock + pendingReservations - mysqlStock;
    }
}
