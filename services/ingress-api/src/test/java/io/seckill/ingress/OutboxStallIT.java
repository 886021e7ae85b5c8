package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.mysqlstate.OutboxLookups;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MySQL stalls longer than the ingress waits for an outbox row: another session holds the table
 * locked (LOCK TABLES ... WRITE), so the winner's insert queues inside MySQL and commits once the lock
 * goes. Whatever the buyer was answered must agree with what then becomes of the order: a 503 only
 * for an order that can never be recorded (its reservation back), a 202 for one that is recorded or
 * rejected with its stock returned; and a retry with the same Idempotency-Key gets the one order.
 */
class OutboxStallIT {

    private static final OutboxLookups OUTBOX = new OutboxLookups();
    private static final int STOCK = 5;
    private static ManagedIngress impatient;
    private final IngressFixture fixture = IngressFixture.get();

    @BeforeAll
    static void startAnIngressThatWaitsOneSecond() {
        impatient = IngressFixture.get().start(Map.of("SECKILL_OUTBOX_WAIT_MS", "1000"));
    }

    @AfterAll
    static void stop() {
        impatient.close();
    }

    @Test
    void aWinnerAnsweredWhileTheOutboxIsLockedGetsTheAnswerItsOrderEndsWith() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, STOCK, 2);

        HttpApi.Reply answer = whileOutboxLocked(() -> impatient.http().buy(sku, "stalled", 1));
        afterTheQueuedWrites(sku);

        assertAnswerAgreesWithFate(sku, "stalled", answer);
    }

    @Test
    void aRetryWithTheSameKeyAfterTheStallGetsTheOneOrder() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, STOCK, 2);

        HttpApi.Reply first = whileOutboxLocked(() -> impatient.http().buy(sku, "careful", 1, "pay-once"));
        afterTheQueuedWrites(sku);
        HttpApi.Reply retry = impatient.http().buy(sku, "careful", 1, "pay-once");

        assertThat(first.status())
                .as("MySQL could not say within the wait: the order's fate is unknown, not failed")
                .isEqualTo(202);
        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.orderId()).as("the key's one order").isEqualTo(first.orderId());
        // The key's one order: recorded, or fenced off before it was (then rejected, its unit back).
        List<OutboxLookups.Entry> recorded = recorded(sku, "careful");
        assertThat(recorded).extracting(entry -> entry.order().orderId()).isSubsetOf(retry.orderId());
        assertThat(OUTBOX.find(fixture.sql(), retry.orderId())).isPresent();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(fixture.probe.heldBy(sku, "careful")).isEqualTo(recorded.size()));
    }

    private HttpApi.Reply whileOutboxLocked(Supplier<HttpApi.Reply> request) {
        return fixture.sql().connectionResult(connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("LOCK TABLES outbox WRITE");
                try {
                    return request.get();
                } finally {
                    statement.execute("UNLOCK TABLES");
                }
            }
        });
    }

    /**
     * The ingress writes rows in order on one writer thread: once a later buy through it is answered,
     * the insert that queued behind the lock has finished, one way or the other.
     */
    private static void afterTheQueuedWrites(long sku) {
        assertThat(impatient.http().buy(sku, "barrier", 1).status()).isEqualTo(202);
    }

    /**
     * The table stays locked for the whole request, so neither the order's row nor a fence can be
     * written before the answer: the buyer is told 202 (fate unknown, never a failure that might be
     * charged), and the order then ends recorded or fenced, with Redis holding its unit accordingly.
     */
    private void assertAnswerAgreesWithFate(long sku, String buyer, HttpApi.Reply answer) {
        assertThat(answer.status()).isEqualTo(202);
        OutboxLookups.Entry row = OUTBOX.find(fixture.sql(), answer.orderId()).orElseThrow();
        long held = row.state() == OutboxLookups.RowState.VOIDED ? 0 : 1;
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(fixture.probe.heldBy(sku, buyer)).isEqualTo(held));
    }

    /** The buyer's rows that are orders (not fences). */
    private List<OutboxLookups.Entry> recorded(long sku, String buyer) {
        return OUTBOX.ofBuyer(fixture.sql(), buyer, sku, 10).stream()
                .filter(entry -> entry.state() != OutboxLookups.RowState.VOIDED)
                .toList();
    }
}
