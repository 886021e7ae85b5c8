package io.seckill.benchmark;

import static io.seckill.schemas.db.Tables.ORDERS;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.OrderBatchWriter;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Skus;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How long the reconciler's payment deadline sweep takes to expire a mass of orders that fell due
 * together: {@code --orders} confirmed orders past their deadline over {@code --skus} SKUs, beside
 * {@code --not-due} confirmed orders still within theirs (which the sweep must not visit), expired by
 * one sweeper in transactions of {@code --batch} orders, as {@code SECKILL_EXPIRY_BATCH}. Reports the
 * time, orders/s and the longest transaction (how long an sku row stays locked).
 */
@Command(name = "expiry-benchmark", mixinStandardHelpOptions = true,
        description = "Time to expire a mass of confirmed orders whose payment deadline passed at once.")
public final class ExpiryBenchmark implements Callable<Integer> {

    @Option(names = "--orders", defaultValue = "100000", description = "orders due at once (default ${DEFAULT-VALUE})")
    int orders;

    @Option(
            names = "--not-due",
            defaultValue = "100000",
            description = "confirmed orders not due yet beside them (default ${DEFAULT-VALUE})")
    int notDue;

    @Option(
            names = "--skus",
            defaultValue = "10",
            description = "SKUs the orders are spread over (default ${DEFAULT-VALUE})")
    int skuCount;

    @Option(
            names = "--batch",
            defaultValue = "500",
            description = "orders per transaction, as SECKILL_EXPIRY_BATCH (default ${DEFAULT-VALUE})")
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
        double[] seconds = new double[rounds];
        double[] longestMs = new double[rounds];
        try (DevelopmentServers servers = serversOptions.start("expiry");
                Database database = Database.connect(
                        InfraAddresses.ofMigrationAccount(new Env(servers.settings())),
                        "expiry-benchmark",
                        2,
                        new SimpleMeterRegistry())) {
            System.out.printf(
                    Locale.ROOT,
                    "%,d orders due at once over %d SKU(s), %,d not due beside them, transactions of %,d, %d"
                            + " round(s)%n",
                    orders,
                    skuCount,
                    notDue,
                    batch,
                    rounds);
            for (int round = 0; round < rounds; round++) {
                Run run = run(database);
                seconds[round] = run.seconds();
                longestMs[round] = run.longestTransactionMs();
                System.out.printf(
                        Locale.ROOT,
                        "round %d  %,d expired in %.1f s (%,.0f orders/s), longest transaction %.0f ms%n",
                        round + 1,
                        orders,
                        run.seconds(),
                        orders / run.seconds(),
                        run.longestTransactionMs());
            }
        }
        double median = Report.median(Arrays.copyOf(seconds, rounds));
        System.out.printf(
                Locale.ROOT,
                "%nmedian over %d round(s): %,d due orders expired in %.1f s (%,.0f orders/s), longest transaction"
                        + " %.0f ms%n",
                rounds,
                orders,
                median,
                orders / median,
                Report.median(Arrays.copyOf(longestMs, rounds)));
        return 0;
    }

    private record Run(double seconds, double longestTransactionMs) {
    }

    private Run run(Database database) {
        long firstSku = 8_000_000_000L + System.nanoTime() % 1_000_000_000L;
        Instant now = Instant.now();
        for (int i = 0; i < skuCount; i++) {
            skus.define(
                    database.dsl(),
                    new Skus.Sale(
                            firstSku + i,
                            "expiry benchmark",
                            orders + notDue,
                            1,
                            now.minusSeconds(60),
                            now.plus(Duration.ofDays(1)),
                            false,
                            null,
                            null),
                    now);
        }
        confirm(database, firstSku, notDue, Duration.ofHours(1), "later");
        confirm(database, firstSku, orders, Duration.ZERO, "due");
        OrderEndings endings = new OrderEndings(Duration.ofSeconds(10));
        Instant deadline = Instant.now().plusMillis(1);
        long started = System.nanoTime();
        long longest = 0;
        int expired = 0;
        List<OrderExpired> done;
        do {
            long transaction = System.nanoTime();
            done = endings.expireOverdue(database.dsl(), deadline, batch);
            longest = Math.max(longest, System.nanoTime() - transaction);
            expired += done.size();
        } while (!done.isEmpty());
        double seconds = (System.nanoTime() - started) / 1e9;
        int stillConfirmed = database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.between(firstSku, firstSku + skuCount - 1)
                .and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED)));
        if (expired != orders || stillConfirmed != notDue) {
            throw new IllegalStateException(expired + " of " + orders + " due orders expired; " + stillConfirmed
                    + " of " + notDue + " not due left confirmed");
        }
        return new Run(seconds, longest / 1e6);
    }

    /** {@code count} orders confirmed by the sink's own writer, due {@code window} after their confirmation. */
    private void confirm(Database database, long firstSku, int count, Duration window, String kind) {
        OrderBatchWriter writer =
                new OrderBatchWriter(database.dsl(), Clock.systemUTC(), Duration.ofSeconds(15), window);
        Instant now = Instant.now();
        for (int sku = 0; sku < skuCount; sku++) {
            List<OrderRequested> ofSku = new ArrayList<>();
            for (int i = sku; i < count; i += skuCount) {
                ofSku.add(OrderRequested.of(
                        UUID.randomUUID().toString(), firstSku + sku, kind + "-" + firstSku + "-" + i, 1, now));
            }
            RecordedOrders.record(database, ofSku);
            for (int from = 0; from < ofSku.size(); from += 1_000) {
                OrderBatchWriter.SkuDecisions decisions =
                        writer.write(firstSku + sku, ofSku.subList(from, Math.min(ofSku.size(), from + 1_000)));
                if (!decisions.unsupported().isEmpty()) {
                    throw new IllegalStateException("the writer refused recorded orders: " + decisions.unsupported());
                }
            }
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ExpiryBenchmark()).execute(args));
    }
}
