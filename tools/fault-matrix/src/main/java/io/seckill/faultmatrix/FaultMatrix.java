package io.seckill.faultmatrix;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.Skus;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The fault matrix: each service its own process, a sale over three SKUs (300, 150 and 50 units, 1-3 units per buyer,
 * at most 3 each; the bucketed rows' sale is one SKU of 500 units in 8 buckets) taken by a few thousand buyers through
 * two ingresses, and one fault per row, injected at one {@link Moment} of the sale: its first second, or its tail while
 * the last winners are accepted. Per row: the 202s, what became of them, stuck orders, oversold units, ghosts (orders
 * in MySQL whose buyer was answered with an error), drift at rest, the seconds from the repair of the fault until
 * everything settled, and whether a new sale works afterwards. One cluster serves every row that needs the same {@link
 * Servers} in turn, after a sale without a fault; each sale has SKUs of its own.
 */
@Command(
        name = "fault-matrix",
        mixinStandardHelpOptions = true,
        description = "Faults injected into a live sale, and what the promises made of them.")
public final class FaultMatrix implements Callable<Integer> {

    private static final int PER_USER_LIMIT = 3;
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final AtomicLong NEXT_SKU =
            new AtomicLong(7_000_000_000L + System.currentTimeMillis() % 100_000_000L * 10);

    @Option(
            names = "--faults",
            split = ",",
            description = "the rows to run (default: all of them): ${COMPLETION-CANDIDATES}")
    List<Fault> faults = List.of(Fault.values());

    @Option(names = "--buyers", defaultValue = "3000", description = "buyers per row (default ${DEFAULT-VALUE})")
    int buyers;

    @Option(
            names = "--concurrency",
            defaultValue = "16",
            description = "buyers in flight at once (default ${DEFAULT-VALUE})")
    int concurrency;

    @Option(
            names = "--cold",
            description = "no warm-up sale on a fresh cluster: its first row meets services that never carried a sale")
    boolean cold;

    @Option(
            names = "--repository",
            defaultValue = ".",
            description = "the working copy with bin/seckill, built (default: here)")
    Path repository;

    @Override
    public Integer call() throws Exception {
        List<RowResult> rows = run(
                repository.toAbsolutePath().normalize(),
                faults,
                buyers,
                concurrency,
                !cold,
                "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        return rows.stream().allMatch(RowResult::passed) ? 0 : 1;
    }

    /**
     * Runs the rows on one cluster per {@link Servers}, printing each as it ends and the table at the end.
     * @param warmUp whether each cluster carries a sale without a fault before its first row
     */
    public static List<RowResult> run(
            Path repository, List<Fault> faults, int buyers, int concurrency, boolean warmUp, String javaOptions)
            throws Exception {
        Path work = repository.resolve("tools/fault-matrix/target/fault-matrix-" + System.currentTimeMillis());
        System.out.println("fault matrix: "
                + faults.stream().mapToInt(fault -> fault.moments().size()).sum() + " row(s), " + buyers
                + " buyers each; logs in " + work.resolve("<servers>/logs"));
        List<RowResult> rows = new ArrayList<>();
        Map<Servers, List<Fault>> byServers = faults.stream()
                .collect(
                        Collectors.groupingBy(Fault::servers, () -> new EnumMap<>(Servers.class), Collectors.toList()));
        for (Map.Entry<Servers, List<Fault>> group : byServers.entrySet()) {
            try (FaultCluster cluster = FaultCluster.start(
                    repository,
                    work.resolve(group.getKey().name().toLowerCase(Locale.ROOT)),
                    javaOptions,
                    Map.of(),
                    group.getKey())) {
                if (warmUp) {
                    warmUp(cluster, buyers, concurrency);
                }
                for (Fault fault : group.getValue()) {
                    for (Moment moment : fault.moments()) {
                        RowResult row = row(cluster, fault, moment, buyers, concurrency);
                        rows.add(row);
                        System.out.println(RowResult.HEADER);
                        System.out.println(row.line());
                    }
                }
            }
        }
        System.out.println();
        System.out.println(RowResult.HEADER);
        rows.forEach(row -> System.out.println(row.line()));
        return rows;
    }

    private static RowResult row(FaultCluster cluster, Fault fault, Moment moment, int buyerCount, int concurrencyLimit)
            throws Exception {
        Buyers buyers = new Buyers();
        int restartsBefore = cluster.supervisorRestarts();
        List<URI> ingresses = cluster.ingresses();
        Fault.SaleShape shape = fault.sale();
        List<Long> skus = defineSale(cluster, shape);
        System.out.println("row: " + fault.description() + ", " + moment.label() + ", on SKUs " + skus);
        FaultInjector injector = new FaultInjector(cluster);
        injector.aim(fault);
        CompletableFuture<List<Buyers.Answer>> sale = buyers.start(
                fault.name().toLowerCase(Locale.ROOT) + "-" + skus.get(0),
                ingresses,
                skus,
                buyerCount,
                concurrencyLimit);
        while (buyers.answered() < buyerCount * moment.answeredShare() && !sale.isDone()) {
            Thread.sleep(20);
        }
        FaultInjector.Strike strike = injector.injectAndRepair(fault, skus);
        List<Buyers.Answer> answers = sale.get();
        SaleAtRest.Rest rest = SaleAtRest.await(cluster, skus, accepted(answers), strike.repairedAt(), PATIENCE);
        injector.awaitRestarts();
        Landing landing = strike.landing().call();
        boolean newSaleWorks = newSaleWorks(cluster, buyers);
        return judge(
                cluster,
                fault,
                moment,
                shape,
                skus,
                answers,
                rest,
                newSaleWorks,
                cluster.supervisorRestarts() - restartsBefore,
                landing);
    }

    /** The row's SKUs, each its sale defined with its stock. */
    private static List<Long> defineSale(FaultCluster cluster, Fault.SaleShape shape)
            throws IOException, InterruptedException {
        List<Long> skus = new ArrayList<>();
        for (int stock : shape.stocks()) {
            long sku = NEXT_SKU.incrementAndGet();
            cluster.admin(0).defineSale(sku, stock, PER_USER_LIMIT, false, shape.stockBuckets());
            skus.add(sku);
        }
        return skus;
    }

    private static List<String> accepted(List<Buyers.Answer> answers) {
        return answers.stream().filter(Buyers.Answer::accepted).map(Buyers.Answer::orderId).toList();
    }

    /**
     * A row's sale without a fault, on a cluster's fresh services before its first row, so that no row's figures depend
     * on its place in the run: the first sale on fresh JVMs spends seconds compiling on two cores (the whole-sale
     * benchmark's cold rounds measure that), and every later row finds the services warm.
     * @throws IllegalStateException when it does not come to rest: the cluster is broken before any fault
     */
    private static void warmUp(FaultCluster cluster, int buyerCount, int concurrencyLimit) throws Exception {
        List<Long> skus = defineSale(cluster, Fault.SaleShape.THREE_SKUS);
        long started = System.nanoTime();
        List<String> accepted = accepted(new Buyers()
                .start("warm-up-" + skus.get(0), cluster.ingresses(), skus, buyerCount, concurrencyLimit)
                .get());
        SaleAtRest.Rest atRest = SaleAtRest.await(cluster, skus, accepted, started, PATIENCE);
        if (!atRest.reached()) {
            throw new IllegalStateException("the warm-up sale on SKUs " + skus + " did not come to rest within "
                    + PATIENCE + ", with no fault; waited on: " + String.join(", ", atRest.waitedOn()));
        }
        System.out.printf(
                Locale.ROOT,
                "warm-up sale on SKUs %s: %d accepted, at rest %.1f s after it started%n",
                skus,
                accepted.size(),
                atRest.seconds());
    }

    private static RowResult judge(
            FaultCluster cluster,
            Fault fault,
            Moment moment,
            Fault.SaleShape shape,
            List<Long> skus,
            List<Buyers.Answer> answers,
            SaleAtRest.Rest rest,
            boolean newSaleWorks,
            int restarts,
            Landing landing) {
        DSLContext db = cluster.database().dsl();
        List<String> accepted = accepted(answers);
        Map<String, OrderResult> decided = new Orders().decided(db, accepted);
        int confirmed = (int) decided.values().stream()
                .filter(order -> order.status() == OrderStatus.CONFIRMED)
                .count();
        int decidedCount = SaleAtRest.decided(db, accepted).size();
        long oversold = 0;
        long mischarged = 0;
        for (int i = 0; i < skus.size(); i++) {
            long confirmedUnits = new Orders().confirmedQuantity(db, skus.get(i));
            oversold += Math.max(0, confirmedUnits - shape.stocks().get(i));
            mischarged += Math.abs(
                    shape.stocks().get(i) - new Skus().stock(db, skus.get(i)).orElseThrow() - confirmedUnits);
        }
        Set<String> recordedBuyers = new HashSet<>(db.select(OUTBOX.USER_ID)
                .from(OUTBOX)
                .where(OUTBOX.AGGREGATEID.in(skus.stream().map(String::valueOf).toList()))
                .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                .fetch(OUTBOX.USER_ID));
        recordedBuyers.addAll(db.select(ORDERS.USER_ID)
                .from(ORDERS)
                .where(ORDERS.SKU_ID.in(skus))
                .and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED))
                .fetch(ORDERS.USER_ID));
        int ghosts = (int) answers.stream()
                .filter(Buyers.Answer::refused)
                .filter(answer -> recordedBuyers.contains(answer.userId()))
                .count();
        int unanswered = (int) answers.stream().filter(answer -> answer.status() == Buyers.Answer.NO_ANSWER).count();
        int badAnswers = (int) answers.stream().filter(answer -> !answer.allowed()).count();
        return new RowResult(
                fault,
                moment,
                accepted.size(),
                confirmed,
                decidedCount - confirmed,
                accepted.size() - decidedCount,
                oversold,
                ghosts,
                mischarged,
                SaleAtRest.drift(cluster, skus),
                unanswered,
                badAnswers,
                rest.seconds(),
                newSaleWorks,
                restarts,
                rest.waitedOn(),
                landing);
    }

    /** A fresh sale: one buyer buys, and the order is confirmed within the patience. */
    private static boolean newSaleWorks(FaultCluster cluster, Buyers buyers) throws Exception {
        long sku = NEXT_SKU.incrementAndGet();
        URI ingress = cluster.ingresses().get(1);
        cluster.admin(1).defineSale(sku, PER_USER_LIMIT, PER_USER_LIMIT, false);
        List<Buyers.Answer> answer = buyers.start("after-" + sku, List.of(ingress), List.of(sku), 1, 1).get();
        if (!answer.get(0).accepted()) {
            return false;
        }
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            if ("CONFIRMED".equals(buyers.status(ingress, answer.get(0).userId(), answer.get(0).orderId()))) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new FaultMatrix()).execute(args));
    }
}
