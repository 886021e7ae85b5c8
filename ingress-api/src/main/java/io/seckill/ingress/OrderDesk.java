package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.OUTBOX;

import io.javalin.http.Context;
import io.seckill.runtime.SaleStore;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buy endpoint. One atomic Lua call decides winner or loser; losers are answered from Redis alone.
 * A winner's order is written to the outbox (if that fails, the reservation is released and the buyer
 * gets 503), then published; the 202 means the order can no longer be lost.
 */
final class OrderDesk {

    private static final Logger LOG = LoggerFactory.getLogger(OrderDesk.class);

    private final SaleStore saleStore;
    private final DSLContext dsl;
    private final OrderPublisher publisher;
    private final Duration relayGrace;
    private final Clock clock;

    OrderDesk(SaleStore saleStore, DSLContext dsl, OrderPublisher publisher, Duration relayGrace, Clock clock) {
        this.saleStore = saleStore;
        this.dsl = dsl;
        this.publisher = publisher;
        this.relayGrace = relayGrace;
        this.clock = clock;
    }

    void buy(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        String userId = PathParams.userId(ctx);
        int quantity = Json.body(ctx, BuyRequest.class).validQuantity();
        String orderId = UUID.randomUUID().toString();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);

        String outcome = saleStore.reserve(skuId, orderId, userId, quantity, now.toEpochMilli());
        switch (outcome) {
            case "RESERVED" -> accept(ctx, OrderRequested.of(orderId, skuId, userId, quantity, now));
            case "NOT_LOADED" -> throw Problem.notFound("SKU_NOT_FOUND", "no sale is defined for SKU " + skuId);
            case "SALE_NOT_STARTED" -> throw Problem.conflict("SALE_NOT_OPEN", "Sale not open", "the sale of SKU " + skuId + " has not started");
            case "SALE_ENDED" -> throw Problem.conflict("SALE_NOT_OPEN", "Sale not open", "the sale of SKU " + skuId + " has ended");
            case "SOLD_OUT" -> throw Problem.conflict("SOLD_OUT", "Sold out", "SKU " + skuId + " has no stock left for " + quantity + " unit(s)");
            case "PURCHASE_LIMIT_REACHED" -> throw Problem.conflict("PURCHASE_LIMIT_REACHED", "Purchase limit reached",
                    "buying " + quantity + " more unit(s) of SKU " + skuId + " would exceed the per-user limit");
            default -> throw new IllegalStateException("reserve script answered " + outcome);
        }
    }

    private void accept(Context ctx, OrderRequested order) {
        try {
            dsl.insertInto(OUTBOX)
                    .set(OUTBOX.ID, order.orderId())
                    .set(OUTBOX.AGGREGATETYPE, "order")
                    .set(OUTBOX.AGGREGATEID, Long.toString(order.skuId()))
                    .set(OUTBOX.TYPE, "OrderRequested")
                    .set(OUTBOX.PAYLOAD, EventJson.encodeToString(order))
                    .set(OUTBOX.CREATED_AT, utc(order.requestedAt()))
                    .set(OUTBOX.RELAY_AFTER, utc(order.requestedAt().plus(relayGrace)))
                    .execute();
        } catch (RuntimeException e) {
            LOG.warn("outbox insert failed for order {}; releasing its reservation", order.orderId(), e);
            saleStore.release(order.skuId(), order.orderId());
            throw new Problem(503, "SERVICE_UNAVAILABLE", "Service unavailable", "the order could not be recorded; nothing was reserved, try again");
        }
        publisher.publish(order);
        String statusUrl = "/api/v1/orders/" + order.orderId();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", order.orderId());
        body.put("status", "PENDING");
        body.put("statusUrl", statusUrl);
        ctx.header("Location", statusUrl);
        Json.respond(ctx, 202, body);
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
