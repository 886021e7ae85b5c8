package io.seckill.ingress;

import io.javalin.http.Context;
import io.seckill.ingress.auth.BuyerIdentity;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.schemas.events.OrderResult;
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
 * A buyer's own orders. {@code GET /api/v1/orders/{orderId}}: Redis answers while the order is recent,
 * so polling during the storm never reaches MySQL; older orders come from MySQL. Someone else's order
 * is indistinguishable from one that does not exist (404). {@code GET /api/v1/orders?skuId=}: every
 * order the buyer made of one SKU, from MySQL, so a buyer whose connection dropped before the answer
 * can find out what became of the request.
 */
record OrderStatusQuery(BuyerIdentity identity, OrderStatusStore statuses, DSLContext dsl, Orders orders, Outbox outbox) {

    private static final int LIST_LIMIT = 100;

    void get(Context ctx) {
        String userId = identity.userId(ctx);
        String orderId = PathParams.orderId(ctx);
        OrderView order = statuses.get(orderId).or(() -> fromMySql(orderId))
                .filter(found -> found.userId().equals(userId))
                .orElseThrow(() -> new Problem(ErrorCode.ORDER_NOT_FOUND, "you have no order " + orderId));
        Json.respond(ctx, 200, body(order));
    }

    void list(Context ctx) {
        String userId = identity.userId(ctx);
        long skuId = PathParams.skuIdQuery(ctx);
        // Outbox first, for the reason given at fromMySql.
        List<Outbox.Entry> recorded = outbox.ofBuyer(dsl, userId, skuId, LIST_LIMIT);
        Map<String, OrderResult> decided = orders.ofBuyer(dsl, userId, skuId, LIST_LIMIT).stream()
                .collect(Collectors.toMap(OrderResult::orderId, Function.identity(), (first, second) -> first, LinkedHashMap::new));
        List<Map<String, Object>> found = new ArrayList<>();
        for (Outbox.Entry entry : recorded) {
            OrderResult decision = decided.remove(entry.orderId());
            found.add(body(decision != null ? viewOf(decision) : viewOf(entry)));
        }
        // Decided orders whose outbox row was purged after its retention.
        decided.values().stream().limit(Math.max(0, LIST_LIMIT - found.size())).forEach(decision -> found.add(body(viewOf(decision))));
        Json.respond(ctx, 200, Map.of("skuId", skuId, "orders", found));
    }

    /**
     * Decided orders from {@code orders}; accepted but undecided ones from the outbox. Outbox first: the
     * sink inserts the order and closes its outbox row in one transaction, so a closed row read here
     * guarantees the order row, if there is one, is visible to the next read.
     */
    private Optional<OrderView> fromMySql(String orderId) {
        Optional<Outbox.Entry> accepted = outbox.find(dsl, orderId);
        Optional<OrderResult> decided = orders.find(dsl, orderId);
        return decided.map(OrderStatusQuery::viewOf).or(() -> accepted.map(OrderStatusQuery::viewOf));
    }

    private static OrderView viewOf(OrderResult order) {
        return new OrderView(order.orderId(), order.skuId(), order.userId(), order.quantity(), order.status(), order.reason());
    }

    /** An order the database has not decided: still open, fenced off before it was recorded, or closed by the dead-letter path. */
    private static OrderView viewOf(Outbox.Entry entry) {
        return switch (entry.state()) {
            case OPEN -> OrderView.pending(entry.orderId(), entry.skuId(), entry.userId(), entry.quantity());
            case VOIDED -> rejected(entry, RejectReason.NOT_RECORDED);
            case COMPLETED -> rejected(entry, RejectReason.DEAD_LETTERED);
        };
    }

    private static OrderView rejected(Outbox.Entry entry, RejectReason reason) {
        return new OrderView(entry.orderId(), entry.skuId(), entry.userId(), entry.quantity(), OrderStatus.REJECTED, reason);
    }

    private static Map<String, Object> body(OrderView order) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", order.orderId());
        body.put("skuId", order.skuId());
        body.put("userId", order.userId());
        body.put("quantity", order.quantity());
        body.put("status", order.status());
        body.put("reason", order.reason());
        return body;
    }
}
