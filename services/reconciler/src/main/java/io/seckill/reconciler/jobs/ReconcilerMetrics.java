package io.seckill.reconciler.jobs;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.redisstate.RedisMemory;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.kafka.Topic;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The pipeline's business figures, as the reconciler sees them: compensations applied, orders expired and units
 * returned, dead letters by stage and reason, relay re-sends and backlog, the oldest undecided order's age, each SKU's
 * pending reservations and drift, and each consumer group's lag. Gauges hold the last measurement.
 */
public final class ReconcilerMetrics {

    private final MeterRegistry meters;
    private final Clock clock;
    /** The stages that dead-letter records: the services'. */
    private static final Set<String> STAGES = Set.of("stream-processor", "db-sink", "reconciler");
    public static final int FAILURE_TAGS = 32;
    public static final String OTHER = "other";
    private final Set<String> failureTags = ConcurrentHashMap.newKeySet();
    private final Counter deadLettersUnfiled;
    private final Counter compensationsApplied;
    private final Counter relayClaimed;
    private final Counter relayAcknowledged;
    private final Counter ordersExpired;
    private final Counter unitsReturned;
    private final Counter relayGaveUp;
    private final Counter redisRebuilds;
    private final Counter driftRepairs;
    private final Counter transactionsAborted;
    private final AtomicLong hangingTransactions = new AtomicLong();
    private final AtomicLong outboxOpenRows = new AtomicLong();
    private final AtomicLong oldestOpenAgeMs = new AtomicLong();
    private final AtomicLong redisUsedBytes = new AtomicLong();
    private final AtomicLong redisMaxBytes = new AtomicLong();
    private final TaggedGauges skuPending;
    private final TaggedGauges skuDrift;
    private final TaggedGauges groupLag;

    public ReconcilerMetrics(MeterRegistry meters, Clock clock) {
        this.meters = meters;
        this.clock = clock;
        this.deadLettersUnfiled = Counter.builder("seckill.dead.letters.unfiled")
                .description("dead letters that changed nothing, past the minute's sample: counted, not filed in MySQL")
                .register(meters);
        this.compensationsApplied = Counter.builder("seckill.compensations.applied")
                .description("compensations that gave reserved units back to Redis").register(meters);
        this.ordersExpired = Counter.builder("seckill.orders.expired")
                .description("confirmed orders expired unpaid after their payment deadline").register(meters);
        this.unitsReturned = Counter.builder("seckill.stock.returned")
                .description("units of cancelled and expired orders given back to Redis").register(meters);
        this.relayClaimed = Counter.builder("seckill.outbox.relay.claimed")
                .description("undecided orders the outbox relay claimed to send again").register(meters);
        this.relayAcknowledged = Counter.builder("seckill.outbox.relay.acknowledged")
                .description("orders the outbox relay sent again that the broker acknowledged").register(meters);
        this.transactionsAborted = Counter.builder("seckill.kafka.hanging.transactions.aborted")
                .description("transactions left open past the bound on a partition, aborted through the admin API")
                .register(meters);
        Gauge.builder("seckill.kafka.hanging.transactions", hangingTransactions, AtomicLong::get)
                .description("transactions open past the bound that could not be aborted at the last check")
                .register(meters);
        this.driftRepairs = Counter.builder("seckill.drift.repairs")
                .description("SKUs whose Redis stock was set to MySQL's after the same drift persisted at rest")
                .register(meters);
        this.redisRebuilds = Counter.builder("seckill.redis.rebuilds")
                .description("times the sale state was rebuilt in Redis from MySQL after Redis lost it")
                .register(meters);
        this.relayGaveUp = Counter.builder("seckill.outbox.relay.gave.up")
                .description(
                        "orders whose record the broker refused on every re-send; rejected UNDELIVERED, stock released")
                .register(meters);
        Gauge.builder("seckill.redis.memory.used", redisUsedBytes, AtomicLong::get).baseUnit("bytes")
                .description("memory Redis uses, as INFO memory reports it").register(meters);
        Gauge.builder("seckill.redis.memory.max", redisMaxBytes, AtomicLong::get).baseUnit("bytes")
                .description("Redis's maxmemory (0: no limit)").register(meters);
        Gauge.builder("seckill.outbox.backlog", outboxOpenRows, AtomicLong::get)
                .description("outbox rows of orders not decided yet").register(meters);
        Gauge.builder("seckill.outbox.oldest.open.age", oldestOpenAgeMs, age -> age.get() / 1000.0)
                .baseUnit("seconds").description("age of the oldest undecided outbox row").register(meters);
        this.skuPending = new TaggedGauges(meters, "seckill.sku.pending.reservations", "sku",
                "units reserved in Redis and not yet settled, per SKU");
        this.skuDrift = new TaggedGauges(meters, "seckill.sku.drift", "sku",
                "Redis stock + pending - MySQL stock per SKU; non-zero at rest means the stores disagree");
        this.groupLag = new TaggedGauges(meters, "seckill.consumer.group.lag", "group",
                "records not yet consumed, per consumer group");
    }

    /** @param outcome {@code released} or {@code confirmed} */
    public void reservationsSwept(String outcome, int count) {
        Counter.builder("seckill.reservations.swept")
                .tag("outcome", outcome)
                .description("reservations the sweep settled after they outstayed the bound")
                .register(meters)
                .increment(count);
    }

    /**
     * @param found transactions open past the bound in the last check
     * @param aborted those aborted
     */
    public void hangingTransactions(int found, int aborted) {
        hangingTransactions.set(found - aborted);
        transactionsAborted.increment(aborted);
    }

    public void driftRepaired() {
        driftRepairs.increment();
    }

    public void redisRebuilt() {
        redisRebuilds.increment();
    }

    public void relayGaveUp(int orders) {
        relayGaveUp.increment(orders);
    }

    public void compensationApplied() {
        compensationsApplied.increment();
    }

    public void expired(int orders) {
        ordersExpired.increment(orders);
    }

    public void stockReturned(int units) {
        unitsReturned.increment(units);
    }

    public void relayClaimed(int rows) {
        relayClaimed.increment(rows);
    }

    public void relayAcknowledged(int rows) {
        relayAcknowledged.increment(rows);
    }

    /**
     * A request-path dead letter named an open order whose outbox row is sound: no evidence, so nothing was rejected.
     */
    public void deadLetterUnproven() {
        UnsupportedRecords.count(
                meters,
                ReconcilerParts.STAGE,
                Topic.DEAD_LETTERS.topicName(),
                UnsupportedRecords.Reason.OUTBOX_ROW_IS_SOUND);
    }

    /**
     * Counted when the recorder reads it: every stage's dead letters pass through here. The tags come from the record's
     * headers, which whoever wrote it chose: a stage outside the services' and failures past the first
     * {@value #FAILURE_TAGS} seen count as {@value #OTHER}, so forged headers cannot make meters without end.
     */
    public void deadLetter(String stage, String exception) {
        String failure = failureTags.size() < FAILURE_TAGS || failureTags.contains(exception) ? exception : OTHER;
        failureTags.add(failure);
        Counter.builder("seckill.dead.letters")
                .description("dead letters read, by the stage that failed and the failure")
                .tag("stage", STAGES.contains(stage) ? stage : OTHER)
                .tag("reason", failure)
                .register(meters)
                .increment();
    }

    /** A dead letter that changed nothing, past the minute's sample: counted, not filed. */
    public void deadLetterNotFiled() {
        deadLettersUnfiled.increment();
    }

    public void outboxBacklog(OutboxLookups.Backlog backlog) {
        outboxOpenRows.set(backlog.openRows());
        oldestOpenAgeMs.set(backlog.oldestCreatedAt()
                .map(oldest -> Math.max(0, Duration.between(oldest, clock.instant()).toMillis()))
                .orElse(0L));
    }

    public void skus(List<SkuFigures> figures) {
        skuPending.set(figures.stream()
                .collect(Collectors.toMap(sku -> Long.toString(sku.skuId()), SkuFigures::pendingReservations)));
        skuDrift.set(figures.stream().collect(Collectors.toMap(sku -> Long.toString(sku.skuId()), SkuFigures::drift)));
    }

    public void redisMemory(RedisMemory memory) {
        redisUsedBytes.set(memory.usedBytes());
        redisMaxBytes.set(memory.maxBytes());
    }

    public void groupLag(Map<String, Long> lagByGroup) {
        groupLag.set(lagByGroup);
    }
}
