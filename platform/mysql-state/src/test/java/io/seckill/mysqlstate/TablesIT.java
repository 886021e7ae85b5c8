package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.trace.TraceParent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The table owners' statements on a real MySQL-compatible server. */
class TablesIT {

    private static final RelayBackoff BACKOFF = new RelayBackoff(Duration.ofSeconds(10), Duration.ofMinutes(1));

    private static final Database DATABASE =
            Database.connect(LocalInfrastructure.get().ownerAddresses(), "tables-test", 4, new SimpleMeterRegistry());
    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 100_000 * 1_000);
    private final DSLContext db = DATABASE.dsl();
    private final Outbox outbox = new Outbox();
    private final OutboxLookups outboxRows = new OutboxLookups();
    private final RelayedRows relay = new Outbox();
    private final Skus skus = new Skus();
    private final Orders orders = new Orders();
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @AfterAll
    static void close() {
        DATABASE.close();
    }

    @Test
    void outboxRowsAreWrittenInOneBatchAndFoundByOrder() {
        long sku = NEXT_SKU.incrementAndGet();
        List<Outbox.NewRow> rows = rows(sku, 3, now.plusSeconds(60));
        outbox.insert(db, rows);

        assertThat(outboxRows.find(db, rows.get(1).order().orderId()))
                .contains(new OutboxLookups.Entry(
                        new OrderFacts(
                                rows.get(1).order().orderId(),
                                rows.get(1).order().skuId(),
                                rows.get(1).order().userId(),
                                1),
                        OutboxLookups.RowState.OPEN));
        assertThat(db.fetchValue(
                        OUTBOX.AGGREGATETYPE, OUTBOX.ID.eq(rows.get(0).order().orderId())))
                .isEqualTo(Outbox.AGGREGATE_TYPE);
        OrderRequested recorded = outboxRows
                .recordedOrders(db, List.of(rows.get(0).order().orderId()))
                .get(rows.get(0).order().orderId())
                .order();
        assertThat(OrderFacts.of(recorded))
                .isEqualTo(new OrderFacts(
                        rows.get(0).order().orderId(), sku, rows.get(0).order().userId(), 1));
        assertThat(recorded.requestedAt())
                .as("recorded by the database's clock").isBetween(now.minusSeconds(5), Instant.now().plusSeconds(5));
        assertThat(outboxRows.find(db, UUID.randomUUID().toString())).isEmpty();
    }

    @Test
    void theRelayClaimsOnlyOpenDueRowsAndPostponesThemByTheGrace() {
        long sku = NEXT_SKU.incrementAndGet();
        List<Outbox.NewRow> due = rows(sku, 2, now.minusSeconds(1));
        List<Outbox.NewRow> notYet = rows(sku, 1, now.plusSeconds(60));
        List<Outbox.NewRow> completed = rows(sku, 1, now.minusSeconds(1));
        outbox.insert(db, due);
        outbox.insert(db, notYet);
        outbox.insert(db, completed);
        relay.complete(db, List.of(completed.get(0).order().orderId()), now);

        List<RelayedRows.Due> claimed = claimedOf(sku, relay.claimDue(db, now, BACKOFF, 5, 1_000));

        assertThat(claimed)
                .extracting(RelayedRows.Due::id)
                .containsExactlyInAnyOrder(
                        due.get(0).order().orderId(), due.get(1).order().orderId());
        assertThat(claimed.get(0).payload()).isIn(due.get(0).payload(), due.get(1).payload());
        assertThat(claimedOf(sku, relay.claimDue(db, now, BACKOFF, 5, 1_000))).as("postponed by the grace").isEmpty();
        assertThat(db.fetchValue(OUTBOX.RELAY_ATTEMPTS, OUTBOX.ID.eq(due.get(0).order().orderId()))).isEqualTo(1);
        assertThat(db.fetchValue(
                        OUTBOX.RELAY_AFTER, OUTBOX.ID.eq(due.get(0).order().orderId())))
                .isEqualTo(now.plusSeconds(10));
    }

    @Test
    void eachClaimWaitsTwiceAsLongUpToTheCeilingAndExhaustedRowsAreNoLongerClaimed() {
        long sku = NEXT_SKU.incrementAndGet();
        List<Outbox.NewRow> due = rows(sku, 1, now.minusSeconds(1));
        outbox.insert(db, due);
        String orderId = due.get(0).order().orderId();
        List<Instant> dueAgainAt = new ArrayList<>();
        Instant at = now;
        for (int attempt = 0; attempt < 4; attempt++) {
            assertThat(claimedOf(sku, relay.claimDue(db, at, BACKOFF, 4, 1_000)))
                    .extracting(RelayedRows.Due::attempts)
                    .containsExactly(attempt);
            at = db.fetchValue(OUTBOX.RELAY_AFTER, OUTBOX.ID.eq(orderId));
            dueAgainAt.add(at);
        }

        assertThat(dueAgainAt)
                .containsExactly(now.plusSeconds(10), now.plusSeconds(30), now.plusSeconds(70), now.plusSeconds(130));
        assertThat(claimedOf(sku, relay.claimDue(db, at, BACKOFF, 4, 1_000))).isEmpty();
        Instant last = at;
        List<RelayedRows.Due> exhausted =
                db.transactionResult(configuration -> relay.lockExhausted(DSL.using(configuration), last, 4, 1_000));
        assertThat(exhausted).extracting(RelayedRows.Due::id).contains(orderId);
    }

    private static List<RelayedRows.Due> claimedOf(long sku, List<RelayedRows.Due> claimed) {
        return claimed.stream().filter(row -> row.key().equals(Long.toString(sku))).toList();
    }

    @Test
    void completingKeepsTheFirstTimeAndPurgingTakesOnlyRowsCompletedBeforeTheCutoff() {
        long sku = NEXT_SKU.incrementAndGet();
        List<Outbox.NewRow> rows = rows(sku, 3, now.plusSeconds(60));
        outbox.insert(db, rows);
        relay.complete(db, List.of(rows.get(0).order().orderId()), now.minus(Duration.ofDays(8)));
        relay.complete(db, List.of(rows.get(0).order().orderId(), rows.get(1).order().orderId()), now);

        assertThat(db.fetchValue(
                        OUTBOX.COMPLETED_AT, OUTBOX.ID.eq(rows.get(0).order().orderId())))
                .isEqualTo(now.minus(Duration.ofDays(8)));
        while (relay.purgeCompletedBefore(db, now.minus(Duration.ofDays(7)), 100) == 100) {
            // older rows of other tests go too; they are completed and past the same cutoff
        }
        assertThat(outboxRows.find(db, rows.get(0).order().orderId())).isEmpty();
        assertThat(outboxRows.find(db, rows.get(1).order().orderId()))
                .map(OutboxLookups.Entry::state)
                .contains(OutboxLookups.RowState.COMPLETED);
        assertThat(outboxRows.find(db, rows.get(2).order().orderId()))
                .map(OutboxLookups.Entry::state)
                .contains(OutboxLookups.RowState.OPEN);
    }

    @Test
    void stockIsChargedOnlyWhenItIsThere() {
        long sku = NEXT_SKU.incrementAndGet();
        skus.define(
                db,
                new Skus.Sale(sku, "phone", 5, 2, now.minusSeconds(60), now.plusSeconds(3600), false, null, null),
                now);

        assertThat(skus.charge(db, sku, 3, now)).isTrue();
        assertThat(skus.charge(db, sku, 3, now)).isFalse();
        assertThat(skus.stock(db, sku)).contains(2);
        assertThat(skus.perUserLimit(db, sku)).contains(2);
        assertThat(skus.stock(db, NEXT_SKU.incrementAndGet())).isEmpty();
        assertThat(skus.stocks(db)).containsEntry(sku, 2);
    }

    @Test
    void decidedOrdersReadBackAsTheyWereWritten() {
        long sku = NEXT_SKU.incrementAndGet();
        OrderRequested won = OrderRequested.of(UUID.randomUUID().toString(), sku, "mia", 2, now);
        OrderRequested lost = OrderRequested.of(UUID.randomUUID().toString(), sku, "ned", 1, now);
        List<OrderResult> decisions =
                List.of(OrderResult.confirmed(won, now), OrderResult.rejected(lost, RejectReason.SOLD_OUT, now));
        orders.insert(db, List.of(won, lost), decisions, Duration.ofMinutes(15));

        Map<String, OrderResult> decided = orders.decided(
                db, List.of(won.orderId(), lost.orderId(), UUID.randomUUID().toString()));
        assertThat(decided)
                .containsEntry(won.orderId(), decisions.get(0))
                .containsEntry(lost.orderId(), decisions.get(1))
                .hasSize(2);
        assertThat(orders.confirmedQuantity(db, sku)).isEqualTo(2);
        assertThat(orders.anyFor(db, sku)).isTrue();
        assertThat(orders.exists(db, lost.orderId())).isTrue();
    }

    private List<Outbox.NewRow> rows(long sku, int count, Instant relayAfter) {
        List<Outbox.NewRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), sku, "buyer-" + i, 1, now);
            rows.add(new Outbox.NewRow(
                    new OrderFacts(order.orderId(), sku, order.userId(), 1),
                    EventJson.encodeToString(order),
                    null,
                    relayAfter,
                    TraceParent.start().toString()));
        }
        return rows;
    }
}
