package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.ORDER_EVENTS;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.mysqlstate.Orders;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.runtime.KafkaProbe;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderCancelled;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderLifecycleEvent;
import io.seckill.schemas.events.OrderPaid;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.kafka.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * A buyer pays or cancels a confirmed order over HTTP: each answer as documented, the state unchanged
 * wherever the request is refused, and each ending's event written with it for the reconciler's relay.
 */
class OrderLifecycleIT {

    private final IngressFixture fixture = IngressFixture.get();
    private final Orders orders = new Orders();
    private final OrderStatusStore statuses = new OrderStatusStore(new LuaRunner(fixture.redis), Duration.ofMinutes(5));

    @Test
    void aPaidOrderStaysPaidAndTheSamePaymentAgainIsANoOp() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "payer");

        HttpApi.Reply paid = fixture.http.pay("payer", order, "psp-42", null);
        HttpApi.Reply again = fixture.http.pay("payer", order, "psp-42", null);
        HttpApi.Reply otherPayment = fixture.http.pay("payer", order, "psp-43", null);
        HttpApi.Reply cancelAfterPay = fixture.http.cancel("payer", order, null);

        assertThat(paid.status()).isEqualTo(200);
        assertThat(paid.json().path("status").asText()).isEqualTo("PAID");
        assertThat(paid.json().path("paymentReference").asText()).isEqualTo("psp-42");
        assertThat(paid.json().path("paidAt").isNull()).isFalse();
        assertThat(paid.json().path("payBy").isNull()).isFalse();
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("paidAt")).isEqualTo(paid.json().path("paidAt"));
        assertThat(otherPayment.status()).isEqualTo(409);
        assertThat(otherPayment.code()).isEqualTo("ORDER_ALREADY_PAID");
        assertThat(cancelAfterPay.status()).isEqualTo(409);
        assertThat(cancelAfterPay.code()).isEqualTo("ORDER_ALREADY_PAID");
        HttpApi.Reply view = fixture.http.order("payer", order);
        assertThat(view.json().path("status").asText()).isEqualTo("PAID");
        assertThat(view.json().path("paymentReference").asText()).isEqualTo("psp-42");
        assertThat(fixture.http
                        .orders("payer", sku)
                        .json()
                        .path("orders")
                        .get(0)
                        .path("status")
                        .asText())
                .isEqualTo("PAID");
        assertThat(lifecycleEventOf(order)).isInstanceOf(OrderPaid.class);
    }

    @Test
    void aCancelledOrderCannotBePaidAndItsEventCarriesItsUnitBackForTheReconciler() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "canceller");
        int stockBefore = fixture.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku));

        HttpApi.Reply cancelled = fixture.http.cancel("canceller", order, null);
        HttpApi.Reply again = fixture.http.cancel("canceller", order, null);
        HttpApi.Reply payAfterCancel = fixture.http.pay("canceller", order, "psp-1", null);

        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().path("status").asText()).isEqualTo("CANCELLED");
        assertThat(cancelled.json().path("cancelledAt").isNull()).isFalse();
        assertThat(again.status()).isEqualTo(200);
        assertThat(payAfterCancel.status()).isEqualTo(409);
        assertThat(payAfterCancel.code()).isEqualTo("ORDER_CANCELLED");
        assertThat(fixture.sql().fetchValue(SKU.STOCK, SKU.ID.eq(sku)))
                .as("the ingress writes no stock")
                .isEqualTo(stockBefore);
        assertThat(lifecycleEventOf(order))
                .isInstanceOf(OrderCancelled.class)
                .matches(OrderLifecycleEvent::returnsStock);
    }

    /**
     * Cancelling a cancelled order changes nothing, so its answer is not kept under the new key: a buyer's fresh keys
     * fill no Redis with copies (each kept a day), and a retry with one still gets the same answer.
     */
    @Test
    void aCancellationThatChangesNothingKeepsNoReplyUnderItsKey() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "re-canceller");
        HttpApi.Reply cancelled = fixture.http.cancel("re-canceller", order, "cancel-0");

        for (int i = 1; i <= 10; i++) {
            HttpApi.Reply again = fixture.http.cancel("re-canceller", order, "cancel-" + i);
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.json().path("status").asText()).isEqualTo("CANCELLED");
            assertThat(again.json().path("cancelledAt")).isEqualTo(cancelled.json().path("cancelledAt"));
            assertThat(fixture.redis.exists("seckill:idempotency:{re-canceller}:cancel-" + i))
                    .as("the reply to a cancellation that changed nothing is kept under its key")
                    .isFalse();
        }
        assertThat(fixture.http.cancel("re-canceller", order, "cancel-1").body()).isEqualTo(
                fixture.http.cancel("re-canceller", order, "cancel-2").body());
        assertThat(fixture.redis.exists("seckill:idempotency:{re-canceller}:cancel-0"))
                .as("the cancellation that did the work is kept for its retries")
                .isTrue();
    }

    @Test
    void aPaymentAfterTheDeadlineIsRefusedAsExpired() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "late-payer");
        fixture.sql()
                .update(ORDERS)
                .set(ORDERS.PAY_BY, Instant.now().minusSeconds(1))
                .where(ORDERS.ORDER_ID.eq(order))
                .execute();

        HttpApi.Reply late = fixture.http.pay("late-payer", order, "psp-1", null);

        assertThat(late.status()).isEqualTo(409);
        assertThat(late.code()).isEqualTo("ORDER_EXPIRED");
        assertThat(late.contentType()).startsWith("application/problem+json");
        assertThat(orders.stored(fixture.sql(), order).orElseThrow().paidAt()).isNull();
    }

    @Test
    void someoneElsesOrderDoesNotExistAndAPendingOneIsNotConfirmed() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "owner");
        fixture.http.openSale(sku + 1_000_000, 10, 5);
        String pending = fixture.http.buy(sku + 1_000_000, "owner", 1).orderId();

        HttpApi.Reply stranger = fixture.http.pay("stranger", order, "psp-1", null);
        HttpApi.Reply strangerCancels = fixture.http.cancel("stranger", order, null);
        HttpApi.Reply notYet = fixture.http.pay("owner", pending, "psp-1", null);

        assertThat(stranger.status()).isEqualTo(404);
        assertThat(stranger.code()).isEqualTo("ORDER_NOT_FOUND");
        assertThat(strangerCancels.code()).isEqualTo("ORDER_NOT_FOUND");
        assertThat(notYet.status()).isEqualTo(409);
        assertThat(notYet.code()).isEqualTo("ORDER_NOT_CONFIRMED");
        assertThat(fixture.http.order("owner", order).json().path("status").asText()).isEqualTo("CONFIRMED");
    }

    @Test
    void aRetryWithTheSameKeyGetsTheFirstAnswerAndABadBodyChangesNothing() {
        long sku = IngressFixture.newSkuId();
        String order = confirmedOrder(sku, "retrier");

        HttpApi.Reply noReference = fixture.http.pay("retrier", order, "", "pay-1");
        HttpApi.Reply paid = fixture.http.pay("retrier", order, "psp-7", "pay-2");
        HttpApi.Reply replay = fixture.http.pay("retrier", order, "psp-7", "pay-2");
        HttpApi.Reply reused = fixture.http.pay("retrier", order, "psp-8", "pay-2");

        assertThat(noReference.status()).isEqualTo(400);
        assertThat(noReference.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(paid.status()).isEqualTo(200);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(paid.body());
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(orders.stored(fixture.sql(), order).orElseThrow().paymentReference()).isEqualTo("psp-7");
    }

    /**
     * A buyer's order, accepted over HTTP, then confirmed in MySQL as the sink would and its status in Redis
     * settled as the reconciler would (neither runs here).
     */
    private String confirmedOrder(long sku, String buyer) {
        if (fixture.sql().fetchCount(SKU, SKU.ID.eq(sku)) == 0) {
            fixture.http.openSale(sku, 10, 5);
        }
        String orderId = fixture.http.buy(sku, buyer, 1).orderId();
        OrderRequested requested = OrderRequested.of(orderId, sku, buyer, 1, Instant.now());
        orders.insert(
                fixture.sql(),
                List.of(requested),
                List.of(OrderResult.confirmed(requested, Instant.now())),
                Duration.ofMinutes(15));
        statuses.putAll(List.of(new OrderView(new OrderFacts(orderId, sku, buyer, 1), OrderStatus.CONFIRMED, null)));
        return orderId;
    }

    /**
     * The ending's event as the ingress leaves it: written with the ending in MySQL, due at once, for the reconciler's
     * relay to publish (the ingress may not write the lifecycle topic); never on the topic from here.
     */
    private OrderLifecycleEvent lifecycleEventOf(String orderId) {
        var row = fixture.sql().select(ORDER_EVENTS.PAYLOAD, ORDER_EVENTS.RELAY_AFTER, DSL.currentTimestamp(3))
                .from(ORDER_EVENTS).where(ORDER_EVENTS.ID.eq(orderId)).fetchSingle();
        assertThat(row.value2()).as("due at once").isBeforeOrEqualTo(row.value3().toInstant().plusMillis(1));
        try (KafkaProbe kafka = new KafkaProbe(fixture.infra.kafka())) {
            assertThat(kafka.readAll(Topic.ORDER_LIFECYCLE.topicName()))
                    .noneMatch(record -> orderId.equals(new String(record.key(), StandardCharsets.UTF_8)));
        }
        return EventJson.decode(row.value1().getBytes(StandardCharsets.UTF_8), OrderLifecycleEvent.class);
    }
}
