package io.seckill.ingress.buying;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.http.Reply;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.pass.PassDesk;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.ingress.skus.SoldOutMemory;
import io.seckill.mysqlstate.SqlFailures;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.SaleStore.ReserveOutcome;
import io.seckill.runtime.OrderTrail;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.trace.TraceParent;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buy endpoint. In order: who buys, is the request well-formed and its sale pass (if it shows one) good, is the SKU
 * known sold out here (answered from memory, no Redis), rate limits, then one atomic Lua call decides. Losers are
 * answered from Redis alone. A winner's order is written to the outbox, then published; the 202 means it can no longer
 * be lost. When the write fails, the answer follows the order's fate as {@link OrderFence} settles it: 503 only once
 * the order can never be recorded (its reservation released), 202 when it was recorded after all or when MySQL cannot
 * tell yet (the order is then decided later either way, and its status says how).
 *
 * <p>With an {@code Idempotency-Key} the rate limit and the key's lookup come first, because a retry
 * of an order that won must get its 202 back even after the SKU sold out. The key is also written with
 * the order's row, so a retry whose key Redis no longer holds still finds its order, and a second
 * order under one key cannot be recorded. A retry that took the key over from a request paused past its
 * claim fences the key in MySQL before it answers with a refusal ({@link KeyedOrders#fenceOff}): the
 * paused request's order then either was recorded first (and is the answer) or never will be.
 */
public final class OrderDesk implements Feature {

    /** The buy route, whose answers the operator page counts. */
    public static final String ROUTE = "/api/v1/skus/{skuId}/orders";

    private static final Logger LOG = LoggerFactory.getLogger(OrderDesk.class);

    private final BuyerIdentity identity;
    private final SalePasses passes;
    private final SaleStore saleStore;
    private final OutboxWriter outbox;
    private final OrderFence fence;
    private final KeyedOrders keyedOrders;
    private final KnownSkus knownSkus;
    private final OrderPublisher publisher;
    private final SoldOutMemory soldOut;
    private final RateLimiter rateLimiter;
    private final IdempotentReplies idempotent;
    private final IngressMetrics metrics;
    private final Clock clock;

    public OrderDesk(
            BuyerIdentity identity,
            SalePasses passes,
            SaleStore saleStore,
            OutboxWriter outbox,
            OrderFence fence,
            KeyedOrders keyedOrders,
            KnownSkus knownSkus,
            OrderPublisher publisher,
            SoldOutMemory soldOut,
            RateLimiter rateLimiter,
            IdempotentReplies idempotent,
            IngressMetrics metrics,
            Clock clock) {
        this.identity = identity;
        this.passes = passes;
        this.saleStore = saleStore;
        this.outbox = outbox;
        this.fence = fence;
        this.keyedOrders = keyedOrders;
        this.knownSkus = knownSkus;
        this.publisher = publisher;
        this.soldOut = soldOut;
        this.rateLimiter = rateLimiter;
        this.idempotent = idempotent;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.post(ROUTE, ctx -> {
            long started = System.nanoTime();
            try {
                buy(ctx);
            } finally {
                metrics.buy(System.nanoTime() - started);
            }
        });
    }

    public void buy(Context ctx) {
        String userId = identity.userId(ctx);
        long skuId = PathParams.skuId(ctx);
        String key = IdempotentReplies.validKey(ctx.header(IdempotentReplies.HEADER));
        int quantity = Json.body(ctx, BuyRequest.class).validQuantity();
        // Checked here, the sale's need of it in the reserve script: a bad pass is refused whatever the sale wants.
        boolean passShown = passes.shown(ctx.header(SalePasses.HEADER), userId, skuId, clock.instant());
        Purchase purchase = new Purchase(skuId, userId, quantity, passShown, ctx.header(TraceParent.HEADER));
        if (key == null) {
            attempt(purchase, null, () -> rateLimiter.admit(RateLimitCounters.Scope.BUY, userId, ctx), ctx.path())
                    .writeTo(ctx);
            return;
        }
        rateLimiter.admit(RateLimitCounters.Scope.BUY, userId, ctx);
        idempotent
                .execute(
                        userId,
                        key,
                        IdempotentReplies.fingerprint(ctx),
                        () -> {
                            try {
                                Reply reply = attempt(purchase, key, () -> {}, ctx.path());
                                return reply.status() == 202
                                        ? reply
                                        : keyedOrders
                                                .earlierOrder(userId, key, skuId)
                                                .map(OrderDesk::accepted)
                                                .orElse(reply);
                            } catch (Problem refused) {
                                // Refused, perhaps because this key's first order holds the buyer's slot or was the one
                                // recorded.
                                Optional<String> earlier = keyedOrders.earlierOrder(userId, key, skuId);
                                if (earlier.isPresent()) {
                                    return accepted(earlier.get());
                                }
                                if (refused.code().status() >= 500) {
                                    throw refused;
                                }
                                return Reply.problem(refused, ctx.path());
                            }
                        },
                        refusal -> keyedOrders
                                .fenceOff(userId, key, skuId)
                                .map(OrderDesk::accepted)
                                .orElse(refusal))
                .writeTo(ctx);
    }

    /** What a buy request asks for, once checked; {@code callerTrace}: the caller's traceparent header, if any. */
    private record Purchase(long skuId, String userId, int quantity, boolean passShown, String callerTrace) {
    }

    private Reply attempt(Purchase purchase, String idempotencyKey, Runnable admission, String path) {
        long skuId = purchase.skuId();
        String userId = purchase.userId();
        int quantity = purchase.quantity();
        Reply remembered = soldOut.answerFor(skuId);
        if (remembered != null) {
            metrics.soldOutFastPath();
            return remembered;
        }
        admission.run();
        String orderId = OrderIds.next();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        ReserveOutcome outcome = metrics.timeReserve(
                () -> saleStore.reserve(skuId, orderId, userId, quantity, now.toEpochMilli(), purchase.passShown()));
        return switch (outcome.reservation()) {
            case RESERVED -> {
                if (outcome.soldOut()) {
                    soldOut.remember(skuId, soldOutAnswer(skuId, path));
                }
                yield record(
                        OrderRequested.of(orderId, skuId, userId, quantity, now),
                        idempotencyKey,
                        TraceParent.continuing(purchase.callerTrace()));
            }
            case SOLD_OUT -> {
                Reply answer = soldOutAnswer(skuId, path);
                if (outcome.soldOut()) {
                    soldOut.remember(skuId, answer);
                }
                yield answer;
            }
            case NOT_LOADED -> throw knownSkus.notLoaded(skuId);
            case SALE_NOT_STARTED ->
                throw new Problem(ErrorCode.SALE_NOT_STARTED, "the sale of SKU " + skuId + " has not started")
                        .with("startsAt", Instant.ofEpochMilli(outcome.value()).toString());
            case SALE_ENDED ->
                throw new Problem(ErrorCode.SALE_ENDED, "the sale of SKU " + skuId + " has ended")
                        .with("endsAt", Instant.ofEpochMilli(outcome.value()).toString());
            case PASS_REQUIRED ->
                throw new Problem(
                                ErrorCode.PASS_REQUIRED,
                                "the sale of SKU " + skuId + " needs a sale pass in the " + SalePasses.HEADER
                                        + " header; get one from " + PassDesk.challengePath(skuId))
                        .with("challengeUrl", PassDesk.challengePath(skuId));
            case QUANTITY_OVER_LIMIT ->
                throw new Problem(
                                ErrorCode.VALIDATION_FAILED,
                                "quantity must be from 1 to " + outcome.value() + " for SKU " + skuId)
                        .with("perUserLimit", outcome.value());
            case INSUFFICIENT_STOCK ->
                throw new Problem(
                                ErrorCode.INSUFFICIENT_STOCK,
                                "only " + outcome.value() + " unit(s) of SKU " + skuId + " left")
                        .with("available", outcome.value());
            case PURCHASE_LIMIT_REACHED ->
                throw new Problem(
                                ErrorCode.PURCHASE_LIMIT_REACHED,
                                "buying " + quantity + " more unit(s) of SKU " + skuId
                                        + " would exceed the per-user limit of " + outcome.value())
                        .with("perUserLimit", outcome.value());
            // A fresh order id already in the ledger: nothing was reserved, and a retry gets a new id.
            case DUPLICATE_ORDER ->
                throw new Problem(
                        ErrorCode.SERVICE_UNAVAILABLE,
                        "the order could not be recorded; nothing was reserved, try again");
        };
    }

    private Reply record(OrderRequested order, String idempotencyKey, TraceParent trace) {
        OrderTrail.Scope scope = OrderTrail.about(OrderFacts.of(order), Optional.of(trace));
        try {
            return recordInScope(order, idempotencyKey, trace);
        } finally {
            scope.close();
        }
    }

    private Reply recordInScope(OrderRequested order, String idempotencyKey, TraceParent trace) {
        // Encoded once: the outbox row and the Kafka record carry the same bytes, as the relay's re-sends do.
        String payload = EventJson.encodeToString(order);
        try {
            outbox.write(order, payload, idempotencyKey, trace);
        } catch (RuntimeException failure) {
            OrderFence.Fate fate = SqlFailures.refusedStatement(failure) ? fence.release(order) : fence.settle(order);
            LOG.warn("recording order {} failed; its fate: {}", order.orderId(), fate, failure);
            return switch (fate) {
                case RECORDED -> published(order, payload, trace);
                // Not published: the relay sends it once its row is there; if it never is, the sweep rejects it.
                case UNKNOWN -> accepted(order.orderId());
                case VOIDED -> {
                    soldOut.forget(order.skuId());
                    throw new Problem(
                            ErrorCode.SERVICE_UNAVAILABLE,
                            "the order could not be recorded; nothing was reserved, try again");
                }
            };
        }
        return published(order, payload, trace);
    }

    private Reply published(OrderRequested order, String payload, TraceParent trace) {
        publisher.publish(order, payload, trace);
        OrderTrail.step(
                OrderFacts.of(order),
                Optional.of(trace),
                "ingress-api",
                "accepted (202), recorded in the outbox and published");
        return accepted(order.orderId());
    }

    private static Reply accepted(String orderId) {
        String statusUrl = "/api/v1/orders/" + orderId;
        return Reply.json(202, new Accepted(orderId, OrderStatus.PENDING, statusUrl), statusUrl);
    }

    /** The answer to an order taken: pending, and where its status is read. */
    record Accepted(String orderId, OrderStatus status, String statusUrl) {
    }

    private static Reply soldOutAnswer(long skuId, String path) {
        return Reply.problem(new Problem(ErrorCode.SOLD_OUT, "SKU " + skuId + " is sold out"), path);
    }
}
