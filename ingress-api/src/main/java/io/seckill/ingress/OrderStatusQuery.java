package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;

import io.javalin.http.Context;
import io.seckill.ingress.auth.BuyerIdentity;
import io.seckill.runtime.OrderStatusStore;
import io.seckill.runtime.OrderView;
import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.db.tables.records.OutboxRecord;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
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
final class OrderStatusQuery {

    private final BuyerIdentity identity;
    private final OrderStatusStore statuses;
    private final DSLContext dsl;

    OrderStatusQuery(BuyerIdentity identity, OrderStatusStore statuses, DSLContext dsl) {
        this.identity = identity;
        this.statuses = statuses;
        this.dsl = dsl;
    }

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
        OutboxRecord accepted = dsl.fetchOne(OUTBOX, OUTBOX.ID.eq(orderId));
        OrdersRecord decided = dsl.fetchOne(ORDERS, ORDERS.ORDER_ID.eq(orderId));
        if (decided != null) {
            return Optional.of(new OrderView(orderId, decided.getSkuId(), decided.getUserId(), decided.getQuantity(),
                    decided.getStatus(), decided.getReason()));
        }
        if (accepted == null) {
            return Optional.empty();
        }
        OrderRequested order = EventJson.decode(accepted.getPayload().getBytes(StandardCharsets.UTF_8), OrderRequested.class);
        boolean deadLettered = accepted.getCompletedAt() != null;
        return Optional.of(new OrderView(orderId, order.skuId(), order.userId(), order.quantity(),
                deadLettered ? OrderStatus.REJECTED.name() : OrderStatus.PENDING.name(), deadLettered ? OrderView.DEAD_LETTERED : null));
    }
}
