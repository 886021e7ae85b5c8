package io.seckill.benchmark;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderBatchWriter;
import io.seckill.mysqlstate.Skus;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Orders per second into MySQL: the db-sink's writer checking each order against its outbox row and deciding a poll's
 * worth of orders per SKU in one transaction, against the same writer deciding one order per transaction, on the same
 * orders and the same server (the development servers' MariaDB, its own process), on one hot SKU and spread over 8. One
 * thread each, as one sink instance consumes one partition. Beside them the sink end to end ({@link
 * SinkThroughKafka}): the db-sink service as its own process, the orders sent through the broker.
 */
@Command(
        name = "sink-benchmark",
        mixinStandardHelpOptions = true,
        description = "The sink's batched transactions vs one transaction per order, orders/s into MySQL.")
public final class SinkBenchmark implements Callable<Integer> {

    private static final String ROW = "%-10s %-32s %12s %20s%n";

    @Option(names = "--orders", defaultValue = "10000", description = "orders per run (default ${DEFAULT-VALUE})")
    int orders;

    @Option(
            names = "--batch",
            defaultValue = "1000",
            description = "orders per poll, as SECKILL_SINK_MAX_BATCH (default ${DEFAULT-VALUE})")
    int batch;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "rounds; medians are reported (default ${DEFAULT-VALUE})")
    int rounds;

    @Mixin
    ServersOptions serversOptions;

    private final Skus skus = new Skus();

    @Override
    public Integer call() throws Exception {
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        try (DevelopmentServers servers = serversOptions.start("sink");
                Database database = Database.connect(
                        InfraAddresses.ofMigrationAccount(new Env(servers.settings())),
                        "sink-benchmark",
                        2,
                        new SimpleMeterRegistry());
                SinkThroughKafka throughKafka = SinkThroughKafka.start(servers)) {
            OrderBatchWriter writer = new OrderBatchWriter(
                    database.dsl(), Clock.systemUTC(), Duration.ofSeconds(15), Duration.ofMinutes(15));
            System.out.printf("%,d orders per run, polls of %,d, %d round(s)%n", orders, batch, rounds);
            for (int round = 1; round <= rounds; round++) {
                for (int skuCount : new int[] {1, 8}) {
                    for (Writer how : Writer.values()) {
                        List<OrderRequested> recorded = recordedOrders(database, skuCount);
                        double rate = switch (how) {
                            case THROUGH_KAFKA -> throughKafka.decide(database, recorded);
                            case BATCHED -> write(writer, recorded, true);
                            case ONE_PER_TRANSACTION -> write(writer, recorded, false);
                        };
                        String name = label(skuCount, how);
                        rates.computeIfAbsent(name, key -> new ArrayList<>()).add(rate);
                        System.out.printf(Locale.ROOT, "round %d  %-42s %,10.0f orders/s%n", round, name, rate);
                    }
                }
            }
        }
        System.out.printf("%nmedians over %d round(s)%n", rounds);
        System.out.printf(ROW, "SKUs", "writer", "orders/s", "x one tx per order");
        for (int skuCount : new int[] {1, 8}) {
            double perOrderRate =
                    Report.median(rates.get(label(skuCount, Writer.ONE_PER_TRANSACTION)), Double::doubleValue);
            for (Writer how : Writer.values()) {
                double rate = Report.median(rates.get(label(skuCount, how)), Double::doubleValue);
                System.out.printf(
                        Locale.ROOT,
                        ROW,
                        skuCount,
                        how.label,
                        String.format(Locale.ROOT, "%,.0f", rate),
                        String.format(Locale.ROOT, "%.1fx", rate / perOrderRate));
            }
        }
        return 0;
    }

    /** How the orders are decided. */
    private enum Writer {
        /** The db-sink service, fed through the broker: end to end. */
        THROUGH_KAFKA("db-sink process, through Kafka"),
        /** The writer in this process, a poll's worth of one SKU's orders in one transaction. */
        BATCHED("writer, one tx per SKU batch"),
        /** The writer in this process, each order its own transaction. */
        ONE_PER_TRANSACTION("writer, one tx per order");

        private final String label;

        Writer(String label) {
            this.label = label;
        }
    }

    private static String label(int skuCount, Writer how) {
        return skuCount + (skuCount == 1 ? " SKU, " : " SKUs, ") + how.label;
    }

    /** {@code orders} fresh orders on {@code skuCount} fresh SKUs, each recorded in the outbox as the ingress does. */
    private List<OrderRequested> recordedOrders(Database database, int skuCount) {
        long firstSku = 7_000_000_000L + System.nanoTime() % 1_000_000_000L;
        Instant now = Instant.now();
        for (int i = 0; i < skuCount; i++) {
            skus.define(database.dsl(), new Skus.Sale(firstSku + i, "sink benchmark", orders, 1, now.minusSeconds(60),
                    now.plus(Duration.ofDays(1)), false, null, null), now);
        }
        List<OrderRequested> all = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++) {
            all.add(OrderRequested.of(
                    UUID.randomUUID().toString(), firstSku + i % skuCount, "sink-" + firstSku + "-" + i, 1, now));
        }
        // The ingress wrote these rows; the writer reads each order's row to check it (part of what is measured).
        RecordedOrders.record(database, all);
        return all;
    }

    /** Decides the orders with the writer in this process; every one must be confirmed. @return orders/s */
    private double write(OrderBatchWriter writer, List<OrderRequested> all, boolean batched) {
        long started = System.nanoTime();
        int confirmed = 0;
        if (batched) {
            for (int from = 0; from < all.size(); from += batch) {
                Map<Long, List<OrderRequested>> bySku = new LinkedHashMap<>();
                all.subList(from, Math.min(all.size(), from + batch))
                        .forEach(order -> bySku.computeIfAbsent(order.skuId(), sku -> new ArrayList<>()).add(order));
                for (Map.Entry<Long, List<OrderRequested>> sku : bySku.entrySet()) {
                    confirmed += confirmedIn(writer.write(sku.getKey(), sku.getValue()));
                }
            }
        } else {
            for (OrderRequested order : all) {
                confirmed += confirmedIn(writer.write(order.skuId(), List.of(order)));
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (confirmed != orders) {
            throw new IllegalStateException(orders + " orders written, " + confirmed + " confirmed");
        }
        return orders / seconds;
    }

    private static int confirmedIn(OrderBatchWriter.SkuDecisions decisions) {
        if (!decisions.unsupported().isEmpty()) {
            throw new IllegalStateException("the writer refused recorded orders: " + decisions.unsupported());
        }
        return (int) decisions.decided().stream().filter(result -> result.status() == OrderStatus.CONFIRMED).count();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SinkBenchmark()).execute(args));
    }
}
