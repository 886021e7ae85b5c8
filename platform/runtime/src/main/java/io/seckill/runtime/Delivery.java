package io.seckill.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record that decoded into a valid value of its topic, with the record it came in (for headers, position,
 * dead-lettering).
 */
public record Delivery<V>(V value, ConsumerRecord<String, byte[]> record) {}
