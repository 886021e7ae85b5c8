package io.seckill.ingress.orders;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.http.Reply;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.mysqlstate.OrderEndings;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.events.OrderFacts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.DSLContext;

/**
 * A buyer pays or cancels their own confirmed order: {@code POST /api/v1/orders/{orderId}/payment} and {@code POST
 * /api/v1/orders/{orderId}/cancellation}. MySQL decides ({@link OrderEndings}); the answer is the order as it stands,
 * 200 when it ended as asked (also when it already had: the same payment again, a second cancellation), else 409 naming
 * how it stands. The ending's event is written with it in MySQL, due at once: the reconciler's relay publishes it (the
 * ingress, facing the internet, may not write the lifecycle topic) and the reconciler returns a cancelled order's units
 * to Redis. With an {@code Idempotency-Key}, a retry gets the first answer.
 */
public final class PayOrCancelDesk implements Feature {

    /** The desk that takes payments {@code payments} verifies, over the buyers' query pool. */
    public static PayOrCancelDesk of(IngressParts parts, PaymentVerifier payments) {
        return new PayOrCancelDesk(
                parts.identity(),
                parts.rateLimiter(),
                parts.queries(),
                parts.orders(),
                parts.outboxRows(),
                new OrderEndings(Duration.ZERO),
                payments,
                parts.idempotent(),
                parts.clock());
    }

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.post("/api/v1/orders/{orderId}/payment", this::pay);
        buyers.routes.post("/api/v1/orders/{orderId}/cancellation", this::cancel);
    }

    private final BuyerIdentity identity;
    private final RateLimiter rateLimiter;
    private final DSLContext dsl;
    private final Orders orders;
    private final OutboxLookups outbox;
    private final OrderEndings endings;
    private final PaymentVerifier payments;
    private final IdempotentReplies idempotent;
    private final Clock clock;

    public PayOrCancelDesk(
            BuyerIdentity identity,
            RateLimiter rateLimiter,
            DSLContext dsl,
            Orders orders,
            OutboxLookups outbox,
            OrderEndings endings,
            PaymentVerifier payments,
            IdempotentReplies idempotent,
            Clock clock) {
        this.identity = identity;
        this.rateLimiter = rateLimiter;
        this.dsl = dsl;
        this.orders = orders;
        this.outbox = outbox;
        this.endings = endings;
        this.payments = payments;
        this.idempotent = idempotent;
        this.clock = clock;
    }

    public void pay(Context ctx) {
        String userId = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.ORDERS, userId, ctx);
        String orderId = PathParams.orderId(ctx);
        String reference = Json.body(ctx, PaymentRequest.class).validReference();
        once(ctx, userId, () -> {
            OrderFacts order = buyersOrder(orderId, userId).order();
            String refusal = payments.refusal(orderId, userId, order.skuId(), order.quantity(), reference);
            if (refusal != null) {
                throw new Problem(ErrorCode.PAYMENT_DECLINED, "payment " + reference + " was declined: " + refusal);
            }
            return answer(endings.pay(dsl, orderId, userId, reference, clock.instant()), orderId, userId);
        });
    }

    public void cancel(Context ctx) {
        String userId = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.ORDERS, userId, ctx);
        String orderId = PathParams.orderId(ctx);
        // The transaction itself finds no order of this buyer (NOT_FOUND): no read ahead of it.
        once(ctx, userId, () -> answer(endings.cancel(dsl, orderId, userId, clock.instant()), orderId, userId));
    }

    private void once(Context ctx, String userId, Supplier<Reply> work) {
        String key = IdempotentReplies.validKey(ctx.header(IdempotentReplies.HEADER));
        Supplier<Reply> answered = () -> {
            try {
                return work.get();
            } catch (Problem refused) {
                if (refused.code().status() >= 500) {
                    throw refused;
                }
                return Reply.problem(refused, ctx.path());
            }
        };
        Reply reply = key == null
                ? answered.get()
                : idempotent.execute(userId, key, IdempotentReplies.fingerprint(ctx), answered);
        reply.writeTo(ctx);
    }

    /**
     * The buyer's decided order, read before the payment is verified (the provider is asked without a row lock held);
     * one still on its way is not confirmed yet, anyone else's does not exist.
     */
    private Orders.Stored buyersOrder(String orderId, String userId) {
        Optional<Orders.Stored> order = orders.stored(dsl, orderId)
                .filter(found -> found.order().userId().equals(userId));
        if (order.isPresent()) {
            return order.get();
        }
        throw notFoundOrPending(orderId, userId);
    }

    private Problem notFoundOrPending(String orderId, String userId) {
        return outbox.find(dsl, orderId).filter(entry -> entry.order().userId().equals(userId))
                .map(entry -> new Problem(ErrorCode.ORDER_NOT_CONFIRMED, "order " + orderId + " is "
                        + OrderStatusDesk.viewOf(entry).status() + ", not CONFIRMED"))
                .orElseGet(() -> new Problem(ErrorCode.ORDER_NOT_FOUND, "you have no order " + orderId));
    }

    private Reply answer(OrderEndings.Ending ending, String orderId, String userId) {
        return switch (ending.outcome()) {
            case DONE -> ok(ending);
            // Paid with this reference, or cancelled, before: a retry gets the same answer without a stored copy.
            case ALREADY -> ok(ending).asChangingNothing();
            case REFUSED ->
                Reply.problem(refusal(ending.order().orElseThrow(), clock.instant()), "/api/v1/orders/" + orderId);
            case NOT_FOUND -> throw notFoundOrPending(orderId, userId);
        };
    }

    private static Reply ok(OrderEndings.Ending ending) {
        return Reply.json(200, OrderReply.of(ending.order().orElseThrow()), null);
    }

    private static Problem refusal(Orders.Stored order, Instant now) {
        String id = order.order().orderId();
        return switch (order.status()) {
            case PAID -> new Problem(ErrorCode.ORDER_ALREADY_PAID, "order " + id + " was paid at " + order.paidAt());
            case CANCELLED ->
                new Problem(ErrorCode.ORDER_CANCELLED, "order " + id + " was cancelled at " + order.cancelledAt());
            case EXPIRED ->
                new Problem(ErrorCode.ORDER_EXPIRED, "order " + id + " expired unpaid at " + order.expiredAt());
            case CONFIRMED -> {
                if (!order.overdue(now)) {
                    throw new IllegalStateException("a confirmed order within its deadline was refused: " + id);
                }
                yield new Problem(ErrorCode.ORDER_EXPIRED, "order " + id + " was due to be paid by " + order.payBy());
            }
            case PENDING, REJECTED ->
                new Problem(ErrorCode.ORDER_NOT_CONFIRMED, "order " + id + " is " + order.status() + ", not CONFIRMED");
        };
    }
}
