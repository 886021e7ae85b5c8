package io.seckill.schemas.events;

/**
 * Where an order stands. PENDING lives only between the ingress's 202 and the sink's commit; REJECTED
 * is final; CONFIRMED awaits payment until its deadline and then ends PAID, CANCELLED (by its buyer) or
 * EXPIRED (not paid in time), exactly one of them.
 */
public enum OrderStatus { PENDING, CONFIRMED, REJECTED, PAID, CANCELLED, EXPIRED }
