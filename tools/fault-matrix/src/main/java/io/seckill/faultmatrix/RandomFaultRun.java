package io.seckill.faultmatrix;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The randomized fault run (a Jepsen-style checker): many short sales on the fault matrix's cluster, each
 * under a schedule of faults the {@link Nemesis} draws from the seed, each judged at rest against the
 * promises ({@link SalePromises}) and as the matrix judges a row: a service that ended on its own (the supervisor
 * started it again) and an answer no buyer should get (a 500, an undocumented status, a request left hanging past its
 * bound) break the sale too. The reconciler's repairs run on short settings, so sweeps, re-sends,
 * drift checks and rebuilds act during the faults rather than after them. A broken promise prints the
 * seed, the sale's schedule and what broke; the run goes on and fails at the end. The same seed draws the
 * same sales and schedules (the processes' own timing stays real); the end prints how often each kind struck.
 */
@Command(name = "random-faults", mixinStandardHelpOptions = true,
        description = "Short sales under randomly drawn faults, every promise checked after each.")
public final class RandomFaultRun implements Callable<Integer> {

    /** The reconciler's repairs on the shortest settings the configuration allows, so they act inside a sale. */
    static final Map<String, String> SHORT_REPAIRS = Map.of(
            "SECKILL_OUTBOX_WAIT_MS", "1000",
            "SECKILL_LEAK_SWEEP_AFTER_MS", "4500",
            "SECKILL_LEAK_SWEEP_INTERVAL_MS", "500",
            "SECKILL_DRIFT_CHECK_INTERVAL_MS", "1000",
            "SECKILL_DRIFT_REPAIR_AFTER_CHECKS", "2",
            "SECKILL_RELAY_INTERVAL_MS", "500",
            "SECKILL_REDIS_WATCH_INTERVAL_MS", "250");
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final int PER_USER_LIMIT = 2;
    private static final int SKUS = 2;
    private static final int BUYERS = 60;
    private static final int BUYERS_PER_USER = 2;
    private static final int ATTEMPTS = 4;
    private static final int CONCURRENCY = 8;
    /** How long the buyers keep arriving: the nemesis's faults start within it. */
    private static final Duration SALE_LENGTH = Duration.ofSeconds(3);

    private static final AtomicLong NEXT_SKU =
            new AtomicLong(8_000_000_000L + System.currentTimeMillis() % 100_000_000L * 10);

    @Option(names = "--sales", defaultValue = "200", description = "sales to run (default ${DEFAULT-VALUE})")
    int sales;

    @Option(names = "--seed", description = "the seed of the draws (default: a new one, printed)")
    Long seed;

    @Option(
            names = "--server-kills",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "whether the nemesis may kill the servers' process (Kafka, MySQL and Redis together; default"
                    + " ${DEFAULT-VALUE})")
    boolean serverKills;

    @Option(
            names = "--repository",
            defaultValue = ".",
            description = "the working copy with bin/seckill, built (default: here)")
    Path repository;

    /**
     * What a run found: the sales run, the faults caused and undone of each kind, and each broken promise with its
     * sale.
     */
    record Outcome(long seed, int sales, Map<NemesisAction, Integer> struck, List<String> failures) {
        boolean held() {
            return failures.isEmpty();
        }
    }

    /**
     * One sale as the seed draws it: the faults of its schedule, and each SKU's stock with the buckets it is split
     * over (null: one).
     */
    record SalePlan(List<ScheduledFault> schedule, List<Integer> stocks, List<Integer> buckets) {}

    /** Every sale of a run, drawn from the seed alone: a run with the same seed meets the same sales and faults. */
    static List<SalePlan> plans(int sales, long seed, boolean serverKills) {
        Random random = new Random(seed);
        List<SalePlan> plans = new ArrayList<>();
        for (int sale = 0; sale < sales; sale++) {
            List<ScheduledFault> schedule = Nemesis.plan(random, serverKills);
            List<Integer> stocks = new ArrayList<>();
            List<Integer> buckets = new ArrayList<>();
            for (int sku = 0; sku < SKUS; sku++) {
                stocks.add(10 + random.nextInt(30));
                // Every other SKU's stock split over 2 to 8 buckets: units move between them while the faults strike.
                buckets.add(random.nextBoolean() ? 2 + random.nextInt(7) : null);
            }
            plans.add(new SalePlan(schedule, stocks, buckets));
        }
        return plans;
    }

    @Override
    public Integer call() throws Exception {
        long chosen = seed != null ? seed : System.nanoTime();
        Outcome outcome = run(
                repository.toAbsolutePath().normalize(),
                sales,
                chosen,
                serverKills,
                "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        return outcome.held() ? 0 : 1;
    }

    static Outcome run(Path repository, int sales, long seed, boolean serverKills, String javaOptions)
            throws Exception {
        Path work = repository.resolve("tools/fault-matrix/target/random-faults-" + System.currentTimeMillis());
        System.out.println(
                "random fault run: seed " + seed + ", " + sales + " sale(s); logs in " + work.resolve("logs"));
        List<SalePlan> plans = plans(sales, seed, serverKills);
        List<String> failures = new ArrayList<>();
        long started = System.nanoTime();
        Map<NemesisAction, Integer> struck;
        try (FaultCluster cluster = FaultCluster.start(repository, work, javaOptions, SHORT_REPAIRS, Servers.SINGLE)) {
            Nemesis nemesis = new Nemesis(cluster);
            for (int sale = 1; sale <= sales; sale++) {
                SalePlan plan = plans.get(sale - 1);
                SaleRun run = sale(cluster, nemesis, sale, plan);
                List<String> broken = run.broken();
                String header = "sale " + sale + " (seed " + seed + "): "
                        + plan.schedule().stream().map(ScheduledFault::describe).toList();
                System.out.println(
                        header + ", " + run.tally() + (broken.isEmpty() ? ": every promise held" : ": BROKEN"));
                broken.forEach(line -> System.out.println("  " + line));
                broken.forEach(line -> failures.add(header + ": " + line));
            }
            struck = nemesis.struck();
        }
        System.out.printf(
                "random fault run, seed %d: %d sale(s), %d fault(s) struck %s, %d broken promise(s) in %.0f s%n",
                seed,
                sales,
                struck.values().stream().mapToInt(Integer::intValue).sum(),
                struck,
                failures.size(),
                (System.nanoTime() - started) / 1e9);
        return new Outcome(seed, sales, struck, failures);
    }

    /** What one sale's buyers were told, and the promises it broke. */
    private record SaleRun(List<Buyers.Answer> told, List<String> broken) {
        String tally() {
            long accepted = told.stream().filter(Buyers.Answer::accepted).count();
            long unanswered = told.stream().filter(answer -> answer.status() == Buyers.Answer.NO_ANSWER).count();
            return accepted + " accepted, " + (told.size() - accepted - unanswered) + " refused, " + unanswered
                    + " unanswered";
        }
    }

    /** One sale under its schedule, judged at rest. */
    private static SaleRun sale(FaultCluster cluster, Nemesis nemesis, int number, SalePlan plan) throws Exception {
        Map<Long, Integer> stocks = new LinkedHashMap<>();
        for (int i = 0; i < SKUS; i++) {
            long sku = NEXT_SKU.incrementAndGet();
            cluster.admin(i).defineSale(sku, plan.stocks().get(i), PER_USER_LIMIT, false, plan.buckets().get(i));
            stocks.put(sku, plan.stocks().get(i));
        }
        int restartsBefore = cluster.supervisorRestarts();
        SalePromises.Sale sale = new SalePromises.Sale(stocks, PER_USER_LIMIT);
        Buyers buyers = new Buyers(ATTEMPTS, BUYERS_PER_USER, PER_USER_LIMIT, SALE_LENGTH);
        CompletableFuture<List<Buyers.Answer>> answers = buyers.start(
                "sale-" + number + "-" + sale.skus().get(0), cluster.ingresses(), sale.skus(), BUYERS, CONCURRENCY);
        CompletableFuture<Void> nemesisDone = nemesis.unleash(plan.schedule());
        List<String> broken = new ArrayList<>();
        try {
            nemesisDone.get();
        } catch (ExecutionException e) {
            broken.add("the nemesis could not undo a fault: " + e.getCause());
        }
        cluster.awaitAllReady();
        List<Buyers.Answer> told = answers.get();
        SaleAtRest.Rest afterFaults = atRest(cluster, sale, told);
        if (!afterFaults.reached()) {
            broken.add("not at rest within " + PATIENCE.toSeconds() + " s of the last fault's end; waited on: "
                    + String.join(", ", afterFaults.waitedOn()));
        }
        // What a request left open (a 503, no answer, still in progress) is asked again with its key, as P7 promises a
        // retry learns the truth.
        List<Buyers.Answer> learned = buyers.learnTheTruth(cluster.ingresses().get(0), told, PATIENCE);
        learned.stream()
                .filter(answer -> answer.idempotencyKey() != null && !answer.definitive())
                .forEach(answer -> broken.add("P7: buyer " + answer.userId() + "'s key " + answer.idempotencyKey()
                        + " still answers " + answer.status() + " " + answer.code()
                        + " at rest: a retry does not learn the truth"));
        SaleAtRest.Rest afterRetries = atRest(cluster, sale, learned);
        if (!afterRetries.reached()) {
            broken.add("not at rest within " + PATIENCE.toSeconds()
                    + " s of the retries that learned the truth; waited on: "
                    + String.join(", ", afterRetries.waitedOn()));
        }
        SalePromises.check(cluster, sale, learned).forEach(violation -> broken.add(violation.toString()));
        cluster.supervisorRestartsSince(restartsBefore).forEach(service -> broken.add(
                "P8: " + service + " ended on its own during the sale; the supervisor started it again"));
        buyers.unexpected().forEach(answer -> broken.add("an answer no buyer should get: " + answer.describe()));
        return new SaleRun(told, broken);
    }

    private static SaleAtRest.Rest atRest(FaultCluster cluster, SalePromises.Sale sale, List<Buyers.Answer> answers)
            throws InterruptedException {
        List<String> accepted = answers.stream().filter(Buyers.Answer::accepted).map(Buyers.Answer::orderId).toList();
        return SaleAtRest.await(cluster, sale.skus(), accepted, System.nanoTime(), PATIENCE);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RandomFaultRun()).execute(args));
    }
}
