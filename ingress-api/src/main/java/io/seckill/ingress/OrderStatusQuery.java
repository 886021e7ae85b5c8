package io.seckill.ingress;

import io.javalin.http.Context;
import io.seckill.ingress.auth.BuyerIdentity;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * {@code GET /api/v1/orders/{orderId}}: a buyer's own order. Redis answers while the order is recent,
 * so polling during the storm never reaches MySQL; older orders come from MySQL. Someone else's order
 * is indistinguishable from one that does not exist (404).
 */
record OrderStatusQuery(BuyerIdentity identity, OrderStatusStore statuses, DSLContext dsl, Orders orders, Outbox outbox) {

    void get(Context ctx) {
        String userId = identity.userId(ctx);
        String orderId = PathParams.orderId(ctx);
        OrderView order = statuses.get(orderId).or(() -> fromMySql(orderId))
                .filter(found -> found.userId().equals(userId))
                .orElseThrow(() -> new Problem(ErrorCode.ORDER_NOT_FOUND, "you have no order " + orderId));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", order.orderId());
        body.put("skuId", order.skuId());
        body.put("userId", order.userId());
        body.put("quantity", order.quantity());
        body.put("status", order.status());
        body.put("reason", order.reason());
        Json.respond(ctx, 200, body);
    }

    /**
     * Decided orders from {@code orders}; accepted but undecided ones from the outbox. Outbox first: the
     * sink inserts the order and closes its outbox row in one transaction, so a closed row read here
     * guarantees the order row, if there is one, is visible to the next read. A row closed without a
     * decision was dead-lettered.
     */
    private Optional<OrderView> fromMySql(String orderId) {
        Optional<Outbox.Entry> accepted = outbox.find(dsl, orderId);
        Optional<OrderResult> decided = orders.find(dsl, orderId);
        if (decided.isPresent()) {
            OrderResult order = decided.get();
            return Optional.of(new OrderView(orderId, order.skuId(), order.userId(), order.quantity(), order.status(), order.reason()));
        }
        return accepted.map(entry -> {
            OrderRequested order = EventJson.decode(entry.payload().getBytes(StandardCharsets.UTF_8), OrderRequested.class);
            return entry.completed()
                    ? new OrderView(orderId, order.skuId(), order.userId(), order.quantity(), OrderStatus.REJECTED, RejectReason.DEAD_LETTERED)
                    : OrderView.pending(orderId, order.skuId(), order.userId(), order.quantity());
        });
    }
}
