package io.seckill.ingress.watch;

import io.javalin.http.Context;
import io.seckill.ingress.http.Json;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.ConsumerGroupLag;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /admin/v1/watch}: everything the operator page shows, as it stands now: each active sale in both stores
 * with its orders so far, this ingress's answers to buys by outcome (the refusals at the door, which never become
 * orders), the relay's backlog, each consumer group's lag, and each service instance's readiness.
 * Counts are cumulative; the page derives rates from two readings. Reads go through the ingress's query pool, never
 * the buy path's.
 */
public record SaleWatch(DSLContext dsl, Skus skus, Orders orders, OutboxLookups outbox, SaleStore saleStore, ConsumerGroupLag lag,
                        WatchedInstances instances, Supplier<Map<String, Long>> buyAnswers, Clock clock) {

    /** A sale stays on the page this long after it ends, so the operator sees its tail decided. */
    static final Duration ENDED_SALES_SHOWN = Duration.ofHours(1);
    private static final Logger LOG = LoggerFactory.getLogger(SaleWatch.class);

    public void get(Context ctx) {
        Instant now = clock.instant();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", now);
        body.put("sales", sales(now));
        body.put("buyAnswers", buyAnswers.get());
        OutboxLookups.Backlog backlog = outbox.backlog(dsl);
        Map<String, Object> relay = new LinkedHashMap<>();
        relay.put("backlog", backlog.openRows());
        relay.put("oldestAgeSeconds", backlog.oldestCreatedAt().map(oldest -> Math.max(0, Duration.between(oldest, now).toMillis()) / 1000.0).orElse(null));
        body.put("relay", relay);
        body.put("consumerGroups", consumerGroups());
        body.put("instances", instances.look());
        Json.respond(ctx, 200, body);
    }

    private List<Map<String, Object>> sales(Instant now) {
        List<Skus.Sale> active = skus.endingAfter(dsl, now.minus(ENDED_SALES_SHOWN));
        Map<Long, Orders.Tally> tallies = orders.tally(dsl, active.stream().map(Skus.Sale::skuId).toList());
        Map<Long, Integer> undecided = outbox.openOrders(dsl);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Skus.Sale sale : active) {
            Orders.Tally tally = tallies.getOrDefault(sale.skuId(), Orders.Tally.NONE);
            SaleStore.RedisSkuState redis = saleStore.state(sale.skuId());
            int open = undecided.getOrDefault(sale.skuId(), 0);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("skuId", sale.skuId());
            row.put("name", sale.name());
            row.put("startsAt", sale.startsAt());
            row.put("endsAt", sale.endsAt());
            row.put("redisStock", redis.stock());
            row.put("pendingReservations", redis.pending());
            row.put("stockBuckets", saleStore.layout(sale.skuId()).buckets());
            row.put("mysqlStock", sale.stock());
            row.put("acceptedOrders", tally.orders() + open);
            row.put("decidedOrders", tally.orders());
            row.put("confirmedQuantity", tally.units(OrderStatus.CONFIRMED) + tally.units(OrderStatus.PAID));
            row.put("paidQuantity", tally.units(OrderStatus.PAID));
            row.put("cancelledQuantity", tally.units(OrderStatus.CANCELLED));
            row.put("expiredQuantity", tally.units(OrderStatus.EXPIRED));
            Map<String, Long> rejected = new TreeMap<>();
            tally.rejectedOrders().forEach((reason, count) -> rejected.put(reason.name(), count));
            row.put("rejectedOrders", rejected);
            row.put("deadLetteredOrders", tally.rejectedOrders().getOrDefault(RejectReason.DEAD_LETTERED, 0L));
            row.put("drift", redis.stock() < 0 ? null : redis.stock() + redis.pending() - sale.stock());
            rows.add(row);
        }
        return rows;
    }

    /** Each group's lag, or null with the reason when Kafka does not answer in time: the rest of the page still shows. */
    private Map<String, Object> consumerGroups() {
        Map<String, Object> groups = new LinkedHashMap<>();
        try {
            groups.put("lag", new TreeMap<>(lag.measure()));
            groups.put("error", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            groups.put("lag", null);
            groups.put("error", "interrupted");
        } catch (Exception e) {
            LOG.debug("consumer lag not measured", e);
            groups.put("lag", null);
            groups.put("error", "Kafka did not answer: " + e);
        }
        return groups;
    }
}
