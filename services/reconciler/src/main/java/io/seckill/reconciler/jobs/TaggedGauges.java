package io.seckill.reconciler.jobs;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One gauge name with a row per value of one tag (a SKU, a consumer group), each row's last measurement. A row is
 * registered once and then only its value changes: Micrometer's {@code MultiGauge} removes and registers a row again on
 * every refresh, and a Prometheus scrape in between fails (duplicate labels) or misses the row. A row no longer
 * measured is removed.
 */
final class TaggedGauges {

    private final MeterRegistry meters;
    private final String name;
    private final String tag;
    private final String description;
    private final Map<String, Row> rows = new ConcurrentHashMap<>();

    TaggedGauges(MeterRegistry meters, String name, String tag, String description) {
        this.meters = meters;
        this.name = name;
        this.tag = tag;
        this.description = description;
    }

    /** The latest measurement of every row; rows absent here leave the registry. */
    synchronized void set(Map<String, Long> valueByTag) {
        valueByTag.forEach((tagValue, value) -> rows.computeIfAbsent(tagValue, this::register).value().set(value));
        rows.entrySet().removeIf(row -> {
            boolean gone = !valueByTag.containsKey(row.getKey());
            if (gone) {
                meters.remove(row.getValue().gauge());
            }
            return gone;
        });
    }

    private Row register(String tagValue) {
        AtomicLong value = new AtomicLong();
        Gauge gauge = Gauge.builder(name, value, AtomicLong::get)
                .description(description)
                .tag(tag, tagValue)
                .strongReference(true)
                .register(meters);
        return new Row(value, gauge);
    }

    private record Row(AtomicLong value, Gauge gauge) {}
}
