package io.seckill.schemas.events;

/** Where an order stands. PENDING lives only between the ingress's 202 and the sink's commit. */
public enum OrderStatus { PENDING, CONFIRMED, REJECTED }
