package io.seckill.runtime;

/** An order as its buyer sees it when polling. {@code reason} is null unless REJECTED. */
public record OrderView(String orderId, long skuId, String userId, int quantity, String status, String reason) {

    /** The reason of an order that was rejected because its record was dead-lettered, not by MySQL. */
    public static final String DEAD_LETTERED = "DEAD_LETTERED";
}
