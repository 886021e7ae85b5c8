package io.seckill.schemas.kafka;

import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.StockCompensation;

/**
 * The topic catalogue: every topic the pipeline uses, what its key and value hold, how many
 * partitions it starts with and how it is cleaned. Every topic is keyed by SKU id (decimal string)
 * so one SKU's records stay ordered in one partition.
 */
public enum Topic {
    ORDER_REQUESTS("order-requests", "skuId", OrderRequested.class, 3, "delete"),
    ORDERS_UNIQUE("order-requests-unique", "skuId", OrderRequested.class, 3, "delete"),
    ORDER_RESULTS("order-results", "skuId", OrderResult.class, 3, "delete"),
    STOCK_COMPENSATIONS("stock-compensations", "skuId", StockCompensation.class, 3, "delete"),
    /** Raw bytes of the failed record; the reason is in the {@link DeadLetterHeaders}. */
    DEAD_LETTERS("dead-letters", "original key", byte[].class, 1, "delete");

    private final String topicName;
    private final String key;
    private final Class<?> valueType;
    private final int partitions;
    private final String cleanupPolicy;

    Topic(String topicName, String key, Class<?> valueType, int partitions, String cleanupPolicy) {
        this.topicName = topicName;
        this.key = key;
        this.valueType = valueType;
        this.partitions = partitions;
        this.cleanupPolicy = cleanupPolicy;
    }

    public String topicName() {
        return topicName;
    }

    public String key() {
        return key;
    }

    public Class<?> valueType() {
        return valueType;
    }

    public int partitions() {
        return partitions;
    }

    public String cleanupPolicy() {
        return cleanupPolicy;
    }
}
