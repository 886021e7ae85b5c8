package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.config.KafkaPrincipal;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.trace.TraceParent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sink's transaction on a real MySQL-compatible server. */
class OrderBatchWriterIT {

    private static final AtomicLong NEXT_SKU = new AtomicLong(System.nanoTime() % 1_000_000 * 1000);
    /** As the sink's own account, so that its transaction is held to its grants. */
    private static Database database;
    /** As the schema's owner: what others write (a sale an admin defines, an outbox row the ingress commits). */
    private static Database owner;
    private static OrderBatchWriter writer;

    @BeforeAll
    static void connect() {
        database = Database.connect(
                LocalInfrastructure.get().addressesFor(KafkaPrincipal.DB_SINK),
                "writer-test",
                4,
                new SimpleMeterRegistry());
        owner = Database.connect(
                LocalInfrastructure.get().ownerAddresses(), "writer-test-owner", 1, new SimpleMeterRegistry());
        writer =
                new OrderBatchWriter(database.dsl(), Clock.systemUTC(), Duration.ofSeconds(15), Duration.ofMinutes(15));
    }

    @AfterAll
    static void disconnect() {
        database.close();
        owner.close();
    }

    @Test
    void aBatchThatFitsIsConfirmedAndChargedOnce() {
        long sku = sale(10, 1);
        List<OrderRequested> batch = orders(sku, 4);
        List<OrderResult> results = decided(sku, batch);

        assertThat(results).extracting(OrderResult::status).containsOnly(OrderStatus.CONFIRMED).hasSize(4);
        assertThat(stock(sku)).isEqualTo(6);
        assertThat(database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku))).isEqualTo(4);
    }

    @Test
    void aBatchThatDoesNotFitConfirmsTheFirstComersAndRejectsTheRest() {
        long sku = sale(3, 1);
        List<OrderRequested> batch = orders(sku, 5);
        List<OrderResult> results = decided(sku, batch);

        assertThat(results.subList(0, 3)).extracting(OrderResult::status).containsOnly(OrderStatus.CONFIRMED);
        assertThat(results.subList(3, 5)).extracting(OrderResult::reason).containsOnly(RejectReason.SOLD_OUT);
        assertThat(stock(sku)).isZero();
        assertThat(database.dsl().fetchCount(USER_PURCHASES, USER_PURCHASES.SKU_ID.eq(sku))).isEqualTo(3);
    }

    @Test
    void redeliveryReportsTheSameDecisionWithoutChargingAgain() {
        long sku = sale(1, 1);
        List<OrderRequested> batch = orders(sku, 2);
        List<OrderResult> first = decided(sku, batch);
        List<OrderResult> again = decided(sku, List.of(batch.get(1), batch.get(0), batch.get(0)));

        assertThat(again).containsExactlyInAnyOrderElementsOf(first);
        assertThat(stock(sku)).isZero();
        assertThat(database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku))).isEqualTo(2);
    }

    @Test
    void theDatabaseGuardsThePerUserLimitAcrossBatches() {
        long sku = sale(10, 2);
        String user = "greedy-" + sku;
        List<OrderResult> first = decided(sku, List.of(order(sku, user, 1), order(sku, user, 2)));
        List<OrderResult> second = decided(sku, List.of(order(sku, user, 1), order(sku, user, 1)));

        assertThat(first).extracting(OrderResult::status).containsExactly(OrderStatus.CONFIRMED, OrderStatus.REJECTED);
        assertThat(second).extracting(OrderResult::status).containsExactly(OrderStatus.CONFIRMED, OrderStatus.REJECTED);
        assertThat(second.get(1).reason()).isEqualTo(RejectReason.PURCHASE_LIMIT_REACHED);
        assertThat(database.dsl().select(USER_PURCHASES.QUANTITY).from(USER_PURCHASES)
                .where(USER_PURCHASES.SKU_ID.eq(sku)).fetchSingle().value1()).isEqualTo(2);
        assertThat(stock(sku)).isEqualTo(8);
    }

    @Test
    void anUnknownSkuIsRejectedAndDecidedOrdersCompleteTheirOutboxRow() {
        long sku = NEXT_SKU.incrementAndGet();
        OrderRequested order = order(sku, "someone", 1);

        assertThat(decided(sku, List.of(order)))
                .extracting(OrderResult::reason)
                .containsExactly(RejectReason.UNKNOWN_SKU);
        assertThat(database.dsl().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(order.orderId()))).isNotNull();
    }

    /**
     * An ingress whose clock is an hour slow takes orders for a sale that ended a minute ago (its
     * requestedAt is inside the window): MySQL recorded them now, outside it, and rejects them; an order
     * recorded a few seconds after the end, within the tolerance, is still sold.
     */
    @Test
    void ordersMySqlRecordedOutsideTheSaleWindowAreRejectedWhateverTheIngressClockSaid() {
        Instant now = Instant.now();
        long ended = sale(10, 1, now.minusSeconds(7200), now.minusSeconds(60));
        long justEnded = sale(10, 1, now.minusSeconds(7200), now.minusSeconds(5));
        OrderRequested slowClock =
                OrderRequested.of(UUID.randomUUID().toString(), ended, "slow-clock", 1, now.minusSeconds(3600));
        OrderRequested late = order(justEnded, "just-late", 1);
        recorded(slowClock);

        assertThat(decided(ended, List.of(slowClock)))
                .extracting(OrderResult::reason)
                .containsExactly(RejectReason.OUTSIDE_SALE_WINDOW);
        assertThat(decided(justEnded, List.of(late)))
                .extracting(OrderResult::status)
                .containsExactly(OrderStatus.CONFIRMED);
        assertThat(stock(ended)).isEqualTo(10);
        assertThat(stock(justEnded)).isEqualTo(9);
    }

    /**
     * Records written straight to the topic, well-formed but unsupported: an order the outbox never recorded, one that
     * names a recorded order with another quantity or buyer, a copy of a decided order claiming more units. None is
     * decided, charged or completes a row; the real order in the same batch is decided as if they were not there.
     */
    @Test
    void recordsTheOutboxOrTheOrdersTableDoNotSupportAreNeverDecided() {
        long sku = sale(10, 5);
        OrderRequested decided = order(sku, "decided-" + sku, 1);
        decided(sku, List.of(decided));
        OrderRequested real = order(sku, "real-" + sku, 1);
        OrderRequested never =
                OrderRequested.of(UUID.randomUUID().toString(), sku, "intruder-" + sku, 5, Instant.now());
        OrderRequested moreUnits = OrderRequested.of(real.orderId(), sku, real.userId(), 5, real.requestedAt());
        OrderRequested otherBuyer = OrderRequested.of(real.orderId(), sku, "thief-" + sku, 1, real.requestedAt());
        OrderRequested decidedCopy =
                OrderRequested.of(decided.orderId(), sku, decided.userId(), 4, decided.requestedAt());

        OrderBatchWriter.SkuDecisions decisions =
                writer.write(sku, List.of(never, moreUnits, otherBuyer, decidedCopy, real));

        assertThat(decisions.unsupported()).extracting(OrderBatchWriter.Unsupported::reason).containsExactly(
                UnsupportedRecords.Reason.NO_OUTBOX_ROW, UnsupportedRecords.Reason.DIFFERS_FROM_OUTBOX_ROW,
                UnsupportedRecords.Reason.DIFFERS_FROM_OUTBOX_ROW, UnsupportedRecords.Reason.DIFFERS_FROM_ORDER_ROW);
        assertThat(decisions.unsupported().get(1).detail()).contains("quantity 5 instead of 1");
        assertThat(decisions.unsupported().get(2).detail()).contains("userId thief-");
        assertThat(decisions.decided()).extracting(OrderResult::orderId).containsExactly(real.orderId());
        assertThat(decisions.decided()).extracting(OrderResult::quantity).containsOnly(1);
        assertThat(stock(sku)).isEqualTo(8);
        assertThat(database.dsl().fetchExists(ORDERS, ORDERS.ORDER_ID.eq(never.orderId()))).isFalse();
        assertThat(database.dsl().fetchValue(ORDERS.QUANTITY, ORDERS.ORDER_ID.eq(real.orderId()))).isEqualTo(1);
    }

    @Test
    void anOrderTheSinkGaveUpOnIsRejectedOnlyWhileItsRowIsOpenAndRecordsExactlyIt() {
        long sku = sale(10, 1);
        OrderRequested failed = order(sku, "failed-" + sku, 1);
        OrderRequested forgedFailure =
                OrderRequested.of(failed.orderId(), sku, failed.userId(), 2, failed.requestedAt());

        assertThat(writer.rejectUndecidable(forgedFailure)).isEmpty();
        assertThat(writer.rejectUndecidable(failed)).map(OrderResult::reason).contains(RejectReason.DEAD_LETTERED);
        assertThat(writer.rejectUndecidable(failed)).as("rejected once").isEmpty();
        assertThat(database.dsl().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(failed.orderId()))).isNotNull();
        assertThat(stock(sku)).isEqualTo(10);
    }

    /**
     * A warm-up's orders are rehearsed and nothing is kept: neither those of a SKU MySQL does not hold (the warm-up's),
     * nor a recorded order of a real sale that a forged mark sent this way; that order is decided later as any other.
     */
    @Test
    void aRehearsalKeepsNothingEvenOfARecordedOrder() {
        long sku = sale(5, 1);
        OrderRequested recorded = order(sku, "marked-by-someone", 1);
        long warmUpSku = NEXT_SKU.incrementAndGet();

        writer.rehearse(
                warmUpSku,
                List.of(OrderRequested.of(
                        UUID.randomUUID().toString(), warmUpSku, "seckill-warm-up-0", 1, Instant.now())));
        writer.rehearse(sku, List.of(recorded));

        assertThat(database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.in(sku, warmUpSku))).isZero();
        assertThat(database.dsl().fetchCount(USER_PURCHASES, USER_PURCHASES.SKU_ID.eq(sku))).isZero();
        assertThat(database.dsl().fetchValue(OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(recorded.orderId())))
                .as("still open")
                .isNull();
        assertThat(stock(sku)).isEqualTo(5);
        assertThat(decided(sku, List.of(recorded)))
                .extracting(OrderResult::status)
                .containsExactly(OrderStatus.CONFIRMED);
    }

    private static long sale(int stock, int limit) {
        Instant now = Instant.now();
        return sale(stock, limit, now.minusSeconds(3600), now.plusSeconds(3600));
    }

    private static long sale(int stock, int limit, Instant startsAt, Instant endsAt) {
        long sku = NEXT_SKU.incrementAndGet();
        new Skus()
                .define(
                        owner.dsl(),
                        new Skus.Sale(sku, "test", stock, limit, startsAt, endsAt, false, null, null),
                        Instant.now());
        return sku;
    }

    private static int stock(long sku) {
        return new Skus().stock(database.dsl(), sku).orElseThrow();
    }

    private static List<OrderRequested> orders(long sku, int count) {
        List<OrderRequested> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            orders.add(order(sku, "user-" + i, 1));
        }
        return orders;
    }

    /** An order as the ingress leaves it: its outbox row written. */
    private static OrderRequested order(long sku, String user, int quantity) {
        return recorded(OrderRequested.of(UUID.randomUUID().toString(), sku, user, quantity, Instant.now()));
    }

    private static OrderRequested recorded(OrderRequested order) {
        new Outbox()
                .insert(
                        owner.dsl(),
                        List.of(Outbox.NewRow.of(
                                order, EventJson.encodeToString(order), null, Duration.ZERO, TraceParent.start())));
        return order;
    }

    /** The decisions on orders every one of which its source of truth supports. */
    private static List<OrderResult> decided(long sku, List<OrderRequested> batch) {
        OrderBatchWriter.SkuDecisions decisions = writer.write(sku, batch);
        assertThat(decisions.unsupported()).isEmpty();
        return decisions.decided();
    }
}
