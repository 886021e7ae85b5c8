package io.seckill.dbsink;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.Skus;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
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
    private static Database database;
    private static OrderBatchWriter writer;

    @BeforeAll
    static void connect() {
        database = Database.connect(LocalInfrastructure.get().addresses(), "writer-test", 4, new SimpleMeterRegistry());
        writer = new OrderBatchWriter(database.dsl(), Clock.systemUTC(), Duration.ofSeconds(15), Duration.ofMinutes(15));
    }

    @AfterAll
    static void disconnect() {
        database.close();
    }

    @Test
    void aBatchThatFitsIsConfirmedAndChargedOnce() {
        long sku = sale(10, 1);
        List<OrderRequested> batch = orders(sku, 4);
        List<OrderResult> results = writer.write(sku, batch);

        assertThat(results).extracting(OrderResult::status).containsOnly(OrderStatus.CONFIRMED).hasSize(4);
        assertThat(stock(sku)).isEqualTo(6);
        assertThat(database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku))).isEqualTo(4);
    }

    @Test
    void aBatchThatDoesNotFitConfirmsTheFirstComersAndRejectsTheRest() {
        long sku = sale(3, 1);
        List<OrderRequested> batch = orders(sku, 5);
        List<OrderResult> results = writer.write(sku, batch);

        assertThat(results.subList(0, 3)).extracting(OrderResult::status).containsOnly(OrderStatus.CONFIRMED);
        assertThat(results.subList(3, 5)).extracting(OrderResult::reason).containsOnly(RejectReason.SOLD_OUT);
        assertThat(stock(sku)).isZero();
        assertThat(database.dsl().fetchCount(USER_PURCHASES, USER_PURCHASES.SKU_ID.eq(sku))).isEqualTo(3);
    }

    @Test
    void redeliveryReportsTheSameDecisionWithoutChargingAgain() {
        long sku = sale(1, 1);
        List<OrderRequested> batch = orders(sku, 2);
        List<OrderResult> first = writer.write(sku, batch);
        List<OrderResult> again = writer.write(sku, List.of(batch.get(1), batch.get(0), batch.get(0)));

        assertThat(again).containsExactlyInAnyOrderElementsOf(first);
        assertThat(stock(sku)).isZero();
        assertThat(database.dsl().fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku))).isEqualTo(2);
    }

    @Test
    void theDatabaseGuardsThePerUserLimitAcrossBatches() {
        long sku = sale(10, 2);
        String user = "greedy-" + sku;
        List<OrderResult> first = writer.write(sku, List.of(order(sku, user, 1), order(sku, user, 2)));
        List<OrderResult> second = writer.write(sku, List.of(order(sku, user, 1), order(sku, user, 1)));

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
        new Outbox().insert(database.dsl(), List.of(Outbox.NewRow.of(order, EventJson.encodeToString(order), null, Duration.ZERO)));

        assertThat(writer.write(sku, List.of(order))).extracting(OrderResult::reason).containsExactly(RejectReason.UNKNOWN_SKU);
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
        OrderRequested slowClock = OrderRequested.of(UUID.randomUUID().toString(), ended, "slow-clock", 1, now.minusSeconds(3600));
        OrderRequested late = order(justEnded, "just-late", 1);
        new Outbox().insert(database.dsl(), List.of(Outbox.NewRow.of(slowClock, EventJson.encodeToString(slowClock), null, Duration.ZERO),
                Outbox.NewRow.of(late, EventJson.encodeToString(late), null, Duration.ZERO)));

        assertThat(writer.write(ended, List.of(slowClock))).extracting(OrderResult::reason).containsExactly(RejectReason.OUTSIDE_SALE_WINDOW);
        assertThat(writer.write(justEnded, List.of(late))).extracting(OrderResult::status).containsExactly(OrderStatus.CONFIRMED);
        assertThat(stock(ended)).isEqualTo(10);
        assertThat(stock(justEnded)).isEqualTo(9);
    }

    private static long sale(int stock, int limit) {
        Instant now = Instant.now();
        return sale(stock, limit, now.minusSeconds(3600), now.plusSeconds(3600));
    }

    private static long sale(int stock, int limit, Instant startsAt, Instant endsAt) {
        long sku = NEXT_SKU.incrementAndGet();
        new Skus().define(database.dsl(), new Skus.Sale(sku, "test", stock, limit, startsAt, endsAt), Instant.now());
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

    private static OrderRequested order(long sku, String user, int quantity) {
        return OrderRequested.of(UUID.randomUUID().toString(), sku, user, quantity, Instant.now());
    }
}
