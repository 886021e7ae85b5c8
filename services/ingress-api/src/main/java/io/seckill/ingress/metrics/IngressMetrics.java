package io.seckill.ingress.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seckill.redisstate.RateLimitCounters;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The ingress's own figures on the management port's {@code /metrics}: requests by route and outcome
 * code, the reserve script's latency histogram, outbox group commits, sold-out fast-path hits and
 * rate-limit hits.
 */
public final class IngressMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Timer reserveScript;
    private final Timer outboxCommit;
    private final DistributionSummary outboxBatch;
    private final Timer buy;
    private final Counter soldOutFastPath;
    private final Counter adminRefusalsUnaudited;
    private final Map<RateLimitCounters.Scope, Counter> rateLimited = new EnumMap<>(RateLimitCounters.Scope.class);

    public IngressMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.reserveScript = Timer.builder("seckill.reserve.script")
                .description("latency of the reserve Lua call").publishPercentileHistogram().register(registry);
        this.outboxCommit = Timer.builder("seckill.outbox.commit")
                .description("latency of one group commit of outbox rows")
                .publishPercentileHistogram()
                .register(registry);
        this.outboxBatch = DistributionSummary.builder("seckill.outbox.batch.rows")
                .description("outbox rows per group commit")
                .register(registry);
        this.buy = Timer.builder("seckill.buy")
                .description("server time of a buy, from routing to the answer")
                .publishPercentileHistogram()
                .register(registry);
        this.soldOutFastPath = Counter.builder("seckill.sold.out.fast.path")
                .description("buys answered SOLD_OUT from memory, without Redis").register(registry);
        this.adminRefusalsUnaudited = Counter.builder("seckill.admin.refusals.unaudited")
                .description("refused admin attempts beyond the audit's budget: counted, not recorded one by one")
                .register(registry);
        for (RateLimitCounters.Scope scope : RateLimitCounters.Scope.values()) {
            rateLimited.put(
                    scope,
                    Counter.builder("seckill.rate.limited")
                            .description("requests refused by a rate limit, by the routes' scope")
                            .tag("scope", scope.name())
                            .register(registry));
        }
    }

    public <T> T timeReserve(Supplier<T> call) {
        return reserveScript.record(call);
    }

    public void outboxCommitted(int rows, long nanos) {
        outboxBatch.record(rows);
        outboxCommit.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void buy(long nanos) {
        buy.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void adminRefusalUnaudited() {
        adminRefusalsUnaudited.increment();
    }

    public void soldOutFastPath() {
        soldOutFastPath.increment();
    }

    public void rateLimited(RateLimitCounters.Scope scope) {
        rateLimited.get(scope).increment();
    }

    /**
     * This instance's answers on {@code route} since it started, by outcome (ACCEPTED, SOLD_OUT, RATE_LIMITED, ...).
     */
    public Map<String, Long> answersTo(String route) {
        Map<String, Long> answers = new TreeMap<>();
        String prefix = route + " ";
        requests.forEach((key, counter) -> {
            if (key.startsWith(prefix)) {
                answers.put(key.substring(prefix.length()), (long) counter.count());
            }
        });
        return answers;
    }

    public void request(String route, String outcome) {
        // Building a meter id per request costs more than the request on the sold-out path: cache them.
        requests.computeIfAbsent(route + " " + outcome,
                key -> registry.counter("seckill.http.requests", "route", route, "outcome", outcome)).increment();
    }
}
