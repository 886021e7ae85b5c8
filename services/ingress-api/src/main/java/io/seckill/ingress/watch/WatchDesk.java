package io.seckill.ingress.watch;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.staticfiles.Location;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.AdminResponseHeaders;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.rooms.RoomFigures;
import io.seckill.ingress.rooms.RoomNow;
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
public record WatchDesk(
        DSLContext dsl,
        Skus skus,
        Orders orders,
        OutboxLookups outbox,
        SaleStore saleStore,
        RoomFigures rooms,
        ConsumerGroupLag lag,
        WatchedInstances instances,
        Supplier<Map<String, Long>> buyAnswers,
        Clock clock)
        implements Feature {

    /** The operator page, on the admin listener. */
    public static final String PAGE = "/watch";

    /** What the page shows, read through the buyers' query pool; {@code buyAnswers} counts the buy route's answers. */
    public static WatchDesk of(
            IngressParts parts,
            ConsumerGroupLag lag,
            WatchedInstances instances,
            Supplier<Map<String, Long>> buyAnswers) {
        return new WatchDesk(
                parts.queries(),
                parts.skus(),
                parts.orders(),
                parts.outboxRows(),
                parts.saleStore(),
                parts.rooms(),
                lag,
                instances,
                buyAnswers,
                parts.clock());
    }

    @Override
    public void adminRoutes(JavalinConfig admin) {
        admin.routes.get("/admin/v1/watch", this::get);
        // The page holds no data: it asks the route above with the admin's token.
        admin.staticFiles.add(page -> {
            page.hostedPath = PAGE;
            page.directory = "/pages/watch";
            page.location = Location.CLASSPATH;
            page.headers = AdminResponseHeaders.PAGES;
        });
    }


    /** A sale stays on the page this long after it ends, so the operator sees its tail decided. */
    static final Duration ENDED_SALES_SHOWN = Duration.ofHours(1);
    private static final Logger LOG = LoggerFactory.getLogger(WatchDesk.class);

    public void get(Context ctx) {
        Instant now = clock.instant();
        OutboxLookups.Backlog backlog = outbox.backlog(dsl);
        Relay relay = new Relay(
                backlog.openRows(),
                backlog.oldestCreatedAt()
                        .map(oldest -> Math.max(0, Duration.between(oldest, now).toMillis()) / 1000.0)
                        .orElse(null));
        Json.respond(ctx, 200, new Watch(now, sales(now), buyAnswers.get(), relay, consumerGroups(), instances.look()));
    }

    /** Everything the page shows, as it stands at {@code at}. */
    record Watch(
            Instant at,
            List<WatchedSale> sales,
            Map<String, Long> buyAnswers,
            Relay relay,
            ConsumerGroups consumerGroups,
            List<WatchedInstances.Seen> instances) {}

    /** The outbox rows not yet published, and how long the oldest has waited (null when none waits). */
    record Relay(int backlog, Double oldestAgeSeconds) {
    }

    /** Each group's lag by group, or null with why it was not measured. */
    record ConsumerGroups(Map<String, Long> lag, String error) {
    }

    /**
     * One sale in both stores with its orders so far; {@code drift} is null while Redis holds no stock figure for it
     * (being rebuilt).
     */
    record WatchedSale(
            long skuId,
            String name,
            Instant startsAt,
            Instant endsAt,
            long redisStock,
            long pendingReservations,
            int stockBuckets,
            int mysqlStock,
            long acceptedOrders,
            long decidedOrders,
            long confirmedQuantity,
            long paidQuantity,
            long cancelledQuantity,
            long expiredQuantity,
            Map<String, Long> rejectedOrders,
            long deadLetteredOrders,
            Long drift,
            WaitingRoomShown queue) {}

    /** A sale's waiting room as this ingress last read it; null on a sale without one. */
    record WaitingRoomShown(int admissionPerSecond, long joined, long admitted, long waiting) {

        static WaitingRoomShown of(RoomNow room) {
            return new WaitingRoomShown(
                    room.room().admissionPerSecond(),
                    room.line().joined(),
                    room.admitted(),
                    Math.max(0, room.line().joined() - room.admitted()));
        }
    }

    private List<WatchedSale> sales(Instant now) {
        List<Skus.Sale> active = skus.endingAfter(dsl, now.minus(ENDED_SALES_SHOWN));
        Map<Long, Orders.Tally> tallies = orders.tally(dsl, active.stream().map(Skus.Sale::skuId).toList());
        Map<Long, Integer> undecided = outbox.openOrders(dsl);
        List<WatchedSale> rows = new ArrayList<>();
        for (Skus.Sale sale : active) {
            Orders.Tally tally = tallies.getOrDefault(sale.skuId(), Orders.Tally.NONE);
            SaleStore.RedisSkuState redis = saleStore.state(sale.skuId());
            int open = undecided.getOrDefault(sale.skuId(), 0);
            Map<String, Long> rejected = new TreeMap<>();
            tally.rejectedOrders().forEach((reason, count) -> rejected.put(reason.name(), count));
            rows.add(new WatchedSale(
                    sale.skuId(),
                    sale.name(),
                    sale.startsAt(),
                    sale.endsAt(),
                    redis.stock(),
                    redis.pending(),
                    saleStore.layout(sale.skuId()).buckets(),
                    sale.stock(),
                    tally.orders() + open,
                    tally.orders(),
                    tally.units(OrderStatus.CONFIRMED) + tally.units(OrderStatus.PAID),
                    tally.units(OrderStatus.PAID),
                    tally.units(OrderStatus.CANCELLED),
                    tally.units(OrderStatus.EXPIRED),
                    rejected,
                    tally.rejectedOrders().getOrDefault(RejectReason.DEAD_LETTERED, 0L),
                    redis.stock() < 0 ? null : redis.stock() + redis.pending() - sale.stock(),
                    rooms.of(sale.skuId()).map(WaitingRoomShown::of).orElse(null)));
        }
        return rows;
    }

    /**
     * Each group's lag, or null with the reason when Kafka does not answer in time: the rest of the page still shows.
     */
    private ConsumerGroups consumerGroups() {
        try {
            return new ConsumerGroups(new TreeMap<>(lag.measure()), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ConsumerGroups(null, "interrupted");
        } catch (Exception e) {
            LOG.debug("consumer lag not measured", e);
            return new ConsumerGroups(null, "Kafka did not answer: " + e);
        }
    }
}
