package io.seckill.reconciler.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.Stores;
import io.seckill.redisstate.SaleStore;
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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.junit.jupiter.api.Test;

/**
 * Reservations left in Redis with no order behind them (an ingress killed between the reserve and
 * the outbox insert, a release lost to an error) go back once they outstay the bound, exactly once,
 * and never while an order can still be recorded: a late insert of a fenced order fails.
 */
class LeakedReservationSweepIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Outbox OUTBOX = new Outbox();
    private static final OutboxLookups OUTBOX_ROWS = new OutboxLookups();
    private static final Orders ORDERS = new Orders();
    private final LeakedReservationSweep sweep = new LeakedReservationSweep(
            Stores.sql(),
            new Skus(),
            ORDERS,
            OUTBOX,
            OUTBOX_ROWS,
            Stores.SALES,
            Stores.STATUSES,
            BOUND,
            Clock.systemUTC(),
            Stores.metrics());

    @Test
    void aReservationNeverRecordedIsReleasedOnceAndItsLateInsertFails() {
        long sku = Stores.openSale(5, 2);
        OrderRequested leaked = reserved(sku, "vanished", 2, Instant.now().minusSeconds(20));

        sweep.sweep();
        sweep.sweep();

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(5, 0));
        assertThat(Stores.PROBE.heldBy(sku, "vanished")).isZero();
        assertThat(OUTBOX_ROWS.find(Stores.sql(), leaked.orderId()))
                .map(OutboxLookups.Entry::state)
                .contains(OutboxLookups.RowState.VOIDED);
        assertThat(Stores.STATUSES.get(leaked.orderId())).hasValueSatisfying(view -> {
            assertThat(view.status()).isEqualTo(OrderStatus.REJECTED);
            assertThat(view.reason()).isEqualTo(RejectReason.NOT_RECORDED);
        });
        assertThatThrownBy(() -> insertRow(leaked)).isInstanceOf(DataAccessException.class);
    }

    @Test
    void recordedOpenOrdersAndYoungReservationsAreLeftAlone() {
        long sku = Stores.openSale(5, 2);
        OrderRequested recorded = reserved(sku, "patient", 1, Instant.now().minusSeconds(20));
        insertRow(recorded);
        OrderRequested young = reserved(sku, "quick", 1, Instant.now());

        sweep.sweep();

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(3, 2));
        assertThat(OUTBOX_ROWS.find(Stores.sql(), young.orderId())).isEmpty();
    }

    @Test
    void decidedOrdersTheLedgerStillHoldsAreSettledAsDecided() {
        long sku = Stores.openSale(5, 2);
        OrderRequested confirmed = reserved(sku, "kept", 1, Instant.now().minusSeconds(20));
        OrderRequested rejected = reserved(sku, "refused", 2, Instant.now().minusSeconds(20));
        insertRow(confirmed);
        insertRow(rejected);
        ORDERS.insert(
                Stores.sql(),
                List.of(confirmed, rejected),
                List.of(
                        OrderResult.confirmed(confirmed, Instant.now()),
                        OrderResult.rejected(rejected, RejectReason.SOLD_OUT, Instant.now())),
                Duration.ofMinutes(15));

        sweep.sweep();

        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(4, 0));
        assertThat(Stores.PROBE.heldBy(sku, "kept")).isEqualTo(1);
        assertThat(Stores.PROBE.heldBy(sku, "refused")).isZero();
    }

    /**
     * The sink decides an order and completes its outbox row in one commit. Landing between the sweep's reads of the
     * two tables, that commit must not make a sold order look dead-lettered (no decision, row completed) and its units
     * go back.
     */
    @Test
    void anOrderTheSinkDecidesBetweenTheSweepsReadsKeepsItsUnits() {
        long sku = Stores.openSale(5, 2);
        OrderRequested order = reserved(sku, "decided-meanwhile", 1, Instant.now().minusSeconds(20));
        insertRow(order);
        AtomicBoolean decided = new AtomicBoolean();
        // After the sweep's first read that names this order (other tests' SKUs are swept too).
        ExecuteListener sinkCommitsAfterTheFirstRead = ExecuteListener.onExecuteEnd(context -> {
            if (context.query() != null
                    && context.query().getBindValues().contains(order.orderId())
                    && decided.compareAndSet(false, true)) {
                Stores.sql().transaction(configuration -> {
                    ORDERS.insert(
                            DSL.using(configuration),
                            List.of(order),
                            List.of(OrderResult.confirmed(order, Instant.now())),
                            Duration.ofMinutes(15));
                    new Outbox().complete(DSL.using(configuration), List.of(order.orderId()), Instant.now());
                });
            }
        });
        DSLContext sweepsConnection = DSL.using(
                Stores.sql().configuration().derive(new DefaultExecuteListenerProvider(sinkCommitsAfterTheFirstRead)));
        LeakedReservationSweep racing = new LeakedReservationSweep(
                sweepsConnection,
                new Skus(),
                ORDERS,
                OUTBOX,
                OUTBOX_ROWS,
                Stores.SALES,
                Stores.STATUSES,
                BOUND,
                Clock.systemUTC(),
                Stores.metrics());

        racing.sweep();

        assertThat(decided).as("the sink's commit landed during the sweep").isTrue();
        assertThat(Stores.SALES.state(sku)).as("sold: not back on sale").isEqualTo(new SaleStore.RedisSkuState(4, 0));
        assertThat(Stores.PROBE.heldBy(sku, "decided-meanwhile")).isEqualTo(1);
    }

    @Test
    void sweepsRacingLateInsertsSettleEveryOrderOneWayNeverBoth() throws Exception {
        int count = 200;
        long sku = Stores.openSale(count, 1);
        List<OrderRequested> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            orders.add(reserved(sku, "racer-" + i, 1, Instant.now().minusSeconds(20)));
        }
        AtomicBoolean inserting = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> sweeping = threads.submit(() -> {
                while (inserting.get()) {
                    sweep.sweep();
                }
                sweep.sweep();
            });
            Future<?> lateInserts = threads.submit(() -> {
                try {
                    for (int i = 0; i < count; i += 2) {
                        try {
                            insertRow(orders.get(i));
                        } catch (DataAccessException fencedFirst) {
                            // the sweep took this order's id first: it must end released
                        }
                    }
                } finally {
                    inserting.set(false);
                }
            });
            lateInserts.get();
            sweeping.get();
        } finally {
            threads.shutdownNow();
        }

        Map<String, OutboxLookups.RowState> rows = OUTBOX_ROWS.states(
                Stores.sql(), orders.stream().map(OrderRequested::orderId).toList());
        int recorded = 0;
        for (OrderRequested order : orders) {
            OutboxLookups.RowState row = rows.get(order.orderId());
            assertThat(row)
                    .as("order %s ends recorded or fenced", order.orderId())
                    .isIn(OutboxLookups.RowState.OPEN, OutboxLookups.RowState.VOIDED);
            long held = Stores.PROBE.heldBy(sku, order.userId());
            assertThat(held)
                    .as("units held for %s (%s)", order.orderId(), row)
                    .isEqualTo(row == OutboxLookups.RowState.OPEN ? 1 : 0);
            recorded += row == OutboxLookups.RowState.OPEN ? 1 : 0;
        }
        assertThat(Stores.SALES.state(sku)).isEqualTo(new SaleStore.RedisSkuState(count - recorded, recorded));
    }

    private static OrderRequested reserved(long sku, String userId, int quantity, Instant at) {
        OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, userId, quantity, at);
        assertThat(Stores.SALES.reserve(sku, order.orderId(), userId, quantity, at.toEpochMilli(), false).reservation())
                .isEqualTo(SaleStore.Reservation.RESERVED);
        return order;
    }

    private static void insertRow(OrderRequested order) {
        OUTBOX.insert(
                Stores.sql(),
                List.of(Outbox.NewRow.of(
                        order, EventJson.encodeToString(order), null, Duration.ofHours(1), TraceParent.start())));
    }
}
