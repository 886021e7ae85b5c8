package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;

import io.javalin.http.Context;
import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.db.tables.records.OutboxRecord;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * {@code GET /api/v1/orders/{orderId}}: decided orders from {@code orders}; accepted but undecided ones
 * from the outbox (PENDING); an outbox row closed without a decision was dead-lettered (REJECTED).
 */
final class OrderStatusQuery {

    static final String DEAD_LETTERED = "DEAD_LETTERED";

    private final DSLContext dsl;

    OrderStatusQuery(DSLContext dsl) {
        this.dsl = dsl;
    }

    void get(Context ctx) {
        String orderId = PathParams.orderId(ctx);
        // Outbox first: the sink inserts the order and closes its outbox row in one transaction, so a
        // closed row read here guarantees the order row, if there is one, is visible to the next read.
        OutboxRecord accepted = dsl.fetchOne(OUTBOX, OUTBOX.ID.eq(orderId));
        OrdersRecord decided = dsl.fetchOne(ORDERS, ORDERS.ORDER_ID.eq(orderId));
        if (decided != null) {
            Json.respond(ctx, 200, body(orderId, decided.getSkuId(), decided.getUserId(), decided.getQuantity(),
                    decided.getStatus(), decided.getReason()));
            return;
        }
        if (accepted == null) {
            throw Problem.notFound("ORDER_NOT_FOUND", "no order " + orderId);
        }
        OrderRequested order = EventJson.decode(accepted.getPayload().getBytes(java.nio.charset.StandardCharsets.UTF_8), OrderRequested.class);
        boolean deadLettered = accepted.getCompletedAt() != null;
        Json.respond(ctx, 200, body(orderId, order.skuId(), order.userId(), order.quantity(),
                deadLettered ? OrderStatus.REJECTED.name() : OrderStatus.PENDING.name(), deadLettered ? DEAD_LETTERED : null));
    }

    private static Map<String, Object> body(String orderId, long skuId, String userId, int quantity, String status, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", orderId);
        body.put("skuId", skuId);
        body.put("userId", userId);
        body.put("quantity", quantity);
        body.put("status", status);
        body.put("reason", reason);
        return body;
    }
}
