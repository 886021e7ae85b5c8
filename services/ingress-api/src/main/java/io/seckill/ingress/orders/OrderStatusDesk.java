package io.seckill.ingress.orders;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jooq.DSLContext;

/**
 * A buyer's own orders. {@code GET /api/v1/orders/{orderId}}: Redis answers while the order is pending, so polling
 * during the storm never reaches MySQL; a decided order comes from MySQL, with its lifecycle (payment deadline, paid,
 * cancelled, expired) and the time of each step. Someone else's order is indistinguishable from one that does not exist
 * (404). {@code GET /api/v1/orders?skuId=}: every order the buyer made of one SKU, from MySQL, so a buyer whose
 * connection dropped before the answer can find out what became of the request. Both are rate-limited per buyer and per
 * address ({@link RateLimitCounters.Scope#ORDERS}), and {@code dsl} is the query pool, apart from the buy path's.
 */
public record OrderStatusDesk(
        BuyerIdentity identity,
        RateLimiter rateLimiter,
        OrderStatusStore statuses,
        DSLContext dsl,
        Orders orders,
        OutboxLookups outbox)
        implements Feature {

    /** The desk over the buyers' query pool. */
    public static OrderStatusDesk of(IngressParts parts) {
        return new OrderStatusDesk(
                parts.identity(),
                parts.rateLimiter(),
                parts.statuses(),
                parts.queries(),
                parts.orders(),
                parts.outboxRows());
    }

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.get("/api/v1/orders/{orderId}", this::get);
        buyers.routes.get("/api/v1/orders", this::list);
    }


    private static final int LIST_LIMIT = 100;

    public void get(Context ctx) {
        String userId = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.ORDERS, userId, ctx);
        String orderId = PathParams.orderId(ctx);
        OrderReply order = statuses.get(orderId)
                .filter(found -> found.status() == OrderStatus.PENDING)
                .map(OrderReply::of)
                .or(() -> fromMySql(orderId))
                .filter(found -> userId.equals(found.order().userId()))
                .orElseThrow(() -> new Problem(ErrorCode.ORDER_NOT_FOUND, "you have no order " + orderId));
        Json.respond(ctx, 200, order);
    }

    public void list(Context ctx) {
        String userId = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.ORDERS, userId, ctx);
        long skuId = PathParams.skuIdQuery(ctx);
        // Outbox first, for the reason given at fromMySql.
        List<OutboxLookups.Entry> recorded = outbox.ofBuyer(dsl, userId, skuId, LIST_LIMIT);
        Map<String, Orders.Stored> decided = orders.ofBuyer(dsl, userId, skuId, LIST_LIMIT).stream()
                .collect(Collectors.toMap(
                        stored -> stored.order().orderId(),
                        Function.identity(),
                        (first, second) -> first,
                        LinkedHashMap::new));
        List<OrderReply> found = new ArrayList<>();
        for (OutboxLookups.Entry entry : recorded) {
            Orders.Stored decision = decided.remove(entry.order().orderId());
            found.add(decision != null ? OrderReply.of(decision) : OrderReply.of(viewOf(entry)));
        }
        // Decided orders whose outbox row was purged after its retention.
        decided.values().stream()
                .limit(Math.max(0, LIST_LIMIT - found.size()))
                .forEach(decision -> found.add(OrderReply.of(decision)));
        Json.respond(ctx, 200, new OrderReply.OfSku(skuId, found));
    }

    /**
     * Decided orders from {@code orders}; accepted but undecided ones from the outbox. Outbox first: the
     * sink inserts the order and closes its outbox row in one transaction, so a closed row read here
     * guarantees the order row, if there is one, is visible to the next read.
     */
    private Optional<OrderReply> fromMySql(String orderId) {
        Optional<OutboxLookups.Entry> accepted = outbox.find(dsl, orderId);
        Optional<Orders.Stored> decided = orders.stored(dsl, orderId);
        return decided.map(OrderReply::of).or(() -> accepted.map(entry -> OrderReply.of(viewOf(entry))));
    }

    /**
     * An order the database has not decided: still open, fenced off before it was recorded, or closed by the
     * dead-letter path.
     */
    public static OrderView viewOf(OutboxLookups.Entry entry) {
        return switch (entry.state()) {
            case OPEN -> OrderView.pending(entry.order());
            case VOIDED -> rejected(entry, RejectReason.NOT_RECORDED);
            case COMPLETED -> rejected(entry, RejectReason.DEAD_LETTERED);
        };
    }

    private static OrderView rejected(OutboxLookups.Entry entry, RejectReason reason) {
        return new OrderView(entry.order(), OrderStatus.REJECTED, reason);
    }
}
