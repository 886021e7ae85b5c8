package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDER_EVENTS;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.OrderExpired;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** How confirmed orders end, decided by MySQL on a real server: one winner per race, units back once. */
class OrderEndingsIT {

    private static final Database DATABASE =
            Database.connect(LocalInfrastructure.get().ownerAddresses(), "endings-test", 12, new SimpleMeterRegistry());
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000 + 500);
    private static final Duration WINDOW = Duration.ofMinutes(15);
    private static final int INITIAL_STOCK = 1_000;

    private final DSLContext db = DATABASE.dsl();
    private final Orders orders = new Orders();
    private final Skus skus = new Skus();
    private final OrderEndings endings = new OrderEndings(Duration.ofSeconds(10));
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @AfterAll
    static void close() {
        DATABASE.close();
    }

    @Test
    void paymentsAndExpiriesRacingAtTheDeadlineEndEachOrderOnceAndKeepTheStockWhole() throws Exception {
        long sku = newSale();
        List<Orders.Stored> confirmed = confirm(sku, 200, "racer-");
        Instant deadline = confirmed.get(0).payBy();
        ExecutorService threads = Executors.newFixedThreadPool(12);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<OrderEndings.Ending>> payments = new ArrayList<>();
        List<Future<List<OrderExpired>>> sweeps = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                sweeps.add(threads.submit(() -> {
                    start.await();
                    List<OrderExpired> expired = new ArrayList<>();
                    List<OrderExpired> batch;
                    do {
                        batch = endings.expireOverdue(db, deadline, 5);
                        expired.addAll(batch);
                    } while (!batch.isEmpty());
                    return expired;
                }));
            }
            // Paid in another order than the sweep's (by deadline, then id): the two meet on rows all along.
            List<OrderFacts> payers = new ArrayList<>(confirmed.stream().map(Orders.Stored::order).toList());
            Collections.shuffle(payers, new Random(sku));
            for (OrderFacts order : payers) {
                // The last millisecond before the deadline: the payment is in time if it gets the row first.
                payments.add(threads.submit(() -> {
                    start.await();
                    return endings.pay(
                            db, order.orderId(), order.userId(), "ref-" + order.orderId(), deadline.minusMillis(1));
                }));
            }
            start.countDown();
            long paid = 0;
            for (Future<OrderEndings.Ending> payment : payments) {
                OrderEndings.Ending ending = payment.get(60, TimeUnit.SECONDS);
                assertThat(ending.outcome()).isIn(OrderEndings.Outcome.DONE, OrderEndings.Outcome.REFUSED);
                if (ending.outcome() == OrderEndings.Outcome.DONE) {
                    paid++;
                    assertThat(ending.order().orElseThrow().status()).isEqualTo(OrderStatus.PAID);
                } else {
                    assertThat(ending.order().orElseThrow().status())
                            .as("the loser is told what won")
                            .isEqualTo(OrderStatus.EXPIRED);
                }
            }
            long expired = 0;
            for (Future<List<OrderExpired>> sweep : sweeps) {
                expired += sweep.get(60, TimeUnit.SECONDS).size();
            }
            // Orders skipped by every sweep while a payment held them, and then not paid, expire on the next run.
            expired += endings.expireOverdue(db, deadline, 500).size();

            assertThat(paid + expired).isEqualTo(200);
            assertThat(paid).as("payments won some races").isPositive();
            assertThat(expired).as("expiries won some races").isPositive();
            Map<OrderStatus, Long> statuses = confirmed.stream()
                    .collect(Collectors.groupingBy(
                            stored -> orders.stored(db, stored.order().orderId())
                                    .orElseThrow()
                                    .status(),
                            Collectors.counting()));
            assertThat(statuses.keySet()).isSubsetOf(OrderStatus.PAID, OrderStatus.EXPIRED);
            assertThat(statuses.getOrDefault(OrderStatus.PAID, 0L)).isEqualTo(paid);
            assertThat(statuses.getOrDefault(OrderStatus.EXPIRED, 0L)).isEqualTo(expired);
            assertThat(db.fetchCount(ORDER_EVENTS, ORDER_EVENTS.SKU_ID.eq(sku)))
                    .as("one event per order")
                    .isEqualTo(200);
            // The expired orders' units back to MySQL, as the reconciler does when it consumes their events (paid ones
            // return none).
            new ReturnedUnits()
                    .restore(
                            db,
                            confirmed.stream()
                                    .map(Orders.Stored::order)
                                    .map(OrderFacts::orderId)
                                    .toList(),
                            deadline);
            long openConfirmed = orders.confirmedQuantity(db, sku) - orders.paidQuantity(db, sku);
            assertThat(skus.stock(db, sku).orElseThrow() + orders.paidQuantity(db, sku) + openConfirmed)
                    .isEqualTo(INITIAL_STOCK);
            assertThat(db.select(DSL.sum(USER_PURCHASES.QUANTITY))
                            .from(USER_PURCHASES)
                            .where(USER_PURCHASES.SKU_ID.eq(sku))
                            .fetchSingle(0, Long.class))
                    .isEqualTo(paid);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCancellationIsFinalAndItsUnitsGoBackOnceWhenReturned() {
        long sku = newSale();
        OrderFacts order = confirm(sku, 1, "canceller-").get(0).order();

        OrderEndings.Ending cancelled = endings.cancel(db, order.orderId(), order.userId(), now);
        OrderEndings.Ending again = endings.cancel(db, order.orderId(), order.userId(), now.plusSeconds(1));
        OrderEndings.Ending paidAfter = endings.pay(db, order.orderId(), order.userId(), "late", now.plusSeconds(2));

        assertThat(cancelled.outcome()).isEqualTo(OrderEndings.Outcome.DONE);
        assertThat(cancelled.order().orElseThrow().cancelledAt()).isEqualTo(now);
        assertThat(cancelled.event().orElseThrow().returnsStock()).isTrue();
        assertThat(again.outcome()).isEqualTo(OrderEndings.Outcome.ALREADY);
        assertThat(paidAfter.outcome()).isEqualTo(OrderEndings.Outcome.REFUSED);
        assertThat(paidAfter.order().orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(skus.stock(db, sku)).as("ending an order writes no stock").contains(INITIAL_STOCK - 1);
        assertThat(new OrderEvents().returnedOrders(db, sku)).isEmpty();

        new ReturnedUnits().restore(db, List.of(order.orderId()), now);
        new ReturnedUnits().restore(db, List.of(order.orderId()), now.plusSeconds(3));
        assertThat(skus.stock(db, sku)).contains(INITIAL_STOCK);
        assertThat(db.fetchValue(USER_PURCHASES.QUANTITY, USER_PURCHASES.SKU_ID.eq(sku))).isZero();
        assertThat(new OrderEvents().returningQuantities(db)).containsEntry(sku, 1);
        assertThat(new OrderEvents().returnedOrders(db, sku)).containsExactly(order.orderId());
    }

    /**
     * The buyers' ingress writes the event row: a forged quantity on it (the ingress's account may insert events, never
     * change an order) gives back the order's units, as the sink recorded them, and no more.
     */
    @Test
    void aCancelledOrderGivesBackItsRecordedQuantityWhateverItsEventRowSays() {
        long sku = newSale();
        OrderFacts order = confirm(sku, 1, "forger-").get(0).order();
        endings.cancel(db, order.orderId(), order.userId(), now);
        db.update(ORDER_EVENTS).set(ORDER_EVENTS.QUANTITY, 100_000).where(ORDER_EVENTS.ID.eq(order.orderId()))
                .execute();

        new ReturnedUnits().restore(db, List.of(order.orderId()), now);

        assertThat(skus.stock(db, sku)).contains(INITIAL_STOCK);
        assertThat(db.fetchValue(USER_PURCHASES.QUANTITY, USER_PURCHASES.SKU_ID.eq(sku))).isZero();
    }

    @Test
    void aPaymentIsFinalAndTheSameReferenceAgainChangesNothing() {
        long sku = newSale();
        OrderFacts order = confirm(sku, 1, "payer-").get(0).order();

        OrderEndings.Ending paid = endings.pay(db, order.orderId(), order.userId(), "psp-1", now);

        assertThat(paid.outcome()).isEqualTo(OrderEndings.Outcome.DONE);
        assertThat(paid.order().orElseThrow())
                .extracting(Orders.Stored::paidAt, Orders.Stored::paymentReference)
                .containsExactly(now, "psp-1");
        assertThat(endings.pay(db, order.orderId(), order.userId(), "psp-1", now.plusSeconds(1))
                        .outcome())
                .isEqualTo(OrderEndings.Outcome.ALREADY);
        assertThat(endings.pay(db, order.orderId(), order.userId(), "psp-2", now.plusSeconds(1))
                        .outcome())
                .isEqualTo(OrderEndings.Outcome.REFUSED);
        assertThat(endings.cancel(db, order.orderId(), order.userId(), now.plusSeconds(2))
                        .outcome())
                .isEqualTo(OrderEndings.Outcome.REFUSED);
        assertThat(endings.pay(db, order.orderId(), "someone-else", "psp-1", now)
                        .outcome())
                .isEqualTo(OrderEndings.Outcome.NOT_FOUND);
        assertThat(skus.stock(db, sku)).contains(INITIAL_STOCK - 1);
        assertThat(new OrderEvents().returningQuantities(db)).doesNotContainKey(sku);
    }

    @Test
    void aPaymentAfterTheDeadlineIsRefusedBeforeAndAfterTheSweepExpiredIt() {
        long sku = newSale();
        Orders.Stored confirmed = confirm(sku, 1, "late-").get(0);
        OrderFacts order = confirmed.order();
        Instant after = confirmed.payBy().plusMillis(1);

        OrderEndings.Ending beforeSweep = endings.pay(db, order.orderId(), order.userId(), "psp", after);
        assertThat(endings.expireOverdue(db, after, 10)).extracting(OrderExpired::orderId).contains(order.orderId());
        OrderEndings.Ending afterSweep = endings.pay(db, order.orderId(), order.userId(), "psp", after);

        assertThat(beforeSweep.outcome()).isEqualTo(OrderEndings.Outcome.REFUSED);
        assertThat(beforeSweep.order().orElseThrow().status()).isEqualTo(OrderStatus.CONFIRMED);
        assertThat(afterSweep.outcome()).isEqualTo(OrderEndings.Outcome.REFUSED);
        assertThat(afterSweep.order().orElseThrow().status()).isEqualTo(OrderStatus.EXPIRED);
        assertThat(afterSweep.order().orElseThrow().expiredAt()).isEqualTo(after);
        assertThat(skus.stock(db, sku)).contains(INITIAL_STOCK - 1);
        new ReturnedUnits().restore(db, List.of(order.orderId()), after);
        assertThat(skus.stock(db, sku)).contains(INITIAL_STOCK);
    }

    private long newSale() {
        long sku = NEXT_SKU.incrementAndGet();
        skus.define(
                db,
                new Skus.Sale(
                        sku,
                        "ending test",
                        INITIAL_STOCK,
                        5,
                        now.minusSeconds(60),
                        now.plusSeconds(3_600),
                        false,
                        null,
                        null),
                now);
        return sku;
    }

    /** Orders confirmed as the sink confirms them: stock charged, the buyer's units counted, a deadline set. */
    private List<Orders.Stored> confirm(long sku, int count, String buyerPrefix) {
        List<OrderRequested> requested = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requested.add(OrderRequested.of(UUID.randomUUID().toString(), sku, buyerPrefix + i, 1, now));
        }
        db.transaction(configuration -> {
            DSLContext tx = DSL.using(configuration);
            assertThat(skus.charge(tx, sku, count, now)).isTrue();
            orders.insert(
                    tx,
                    requested,
                    requested.stream()
                            .map(order -> OrderResult.confirmed(order, now))
                            .toList(),
                    WINDOW);
            var insert = tx.insertInto(
                    USER_PURCHASES, USER_PURCHASES.SKU_ID, USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY);
            for (OrderRequested order : requested) {
                insert = insert.values(sku, order.userId(), 1);
            }
            insert.execute();
        });
        return requested.stream().map(order -> orders.stored(db, order.orderId()).orElseThrow()).toList();
    }
}
