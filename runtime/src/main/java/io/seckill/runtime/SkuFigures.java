package io.seckill.runtime;

/**
 * One SKU as both stores see it. At rest, {@code redisStock + pendingReservations == mysqlStock}
 * (promise P5); {@link #drift()} is the difference, positive when Redis would sell more than MySQL holds.
 */
public record SkuFigures(long skuId, long mysqlStock, long redisStock, long pendingReservations, long confirmedQuantity) {

    public long drift() {
        return redisStock + pendingReservations - mysqlStock;
    }
}
