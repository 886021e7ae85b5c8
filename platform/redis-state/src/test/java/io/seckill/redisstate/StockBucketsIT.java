package io.seckill.redisstate;

/** {@link StockBucketsContract} on a single Redis node. */
class StockBucketsIT extends StockBucketsContract {
}
