package io.seckill.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The whole sale's correctness counts, from what a design's stores report after the load. */
class WholeSaleRoundTest {

    private static final long SKU_A = 1;
    private static final long SKU_B = 2;

    private static final List<WholeSaleLoad.Accepted> ACCEPTED = List.of(
            new WholeSaleLoad.Accepted("o1", "ann", SKU_A, 2, 1_000),
            new WholeSaleLoad.Accepted("o2", "bob", SKU_A, 1, 1_000),
            new WholeSaleLoad.Accepted("o3", "cid", SKU_B, 3, 1_000));

    @Test
    void countsWhatTheStoresHoldAgainstWhatWasSoldAndAnswered() throws Exception {
        StoresAfterTheSale stores = new StoresAfterTheSale(
                Design.REDIS_QUEUE,
                Map.of(SKU_A, 22L, SKU_B, 20L),
                Map.of("1:ann", 3L, "1:bob", 4L, "2:cid", 5L),
                Map.of(SKU_A, -3L, SKU_B, 1L));

        WholeSaleRound round = check(stores, load(0), Map.of("o1", 1_250L, "o3", 2_000L));

        assertThat(round.sold()).isEqualTo(42);
        assertThat(round.oversold()).as("units beyond a SKU's stock").isEqualTo(2);
        assertThat(round.lost()).as("accepted, never in MySQL").isEqualTo(1);
        assertThat(round.overLimit()).as("buyers holding more than the limit").isEqualTo(2);
        assertThat(round.drift()).as("|apart| summed over the SKUs").isEqualTo(4);
        assertThat(round.drainP50Ms()).isEqualTo(250);
        assertThat(round.drainP99Ms()).isEqualTo(1_000);
        assertThat(round.failures()).containsExactly("2 oversold", "1 lost", "2 over limit", "4 drift");
    }

    @Test
    void aFailedAttemptFailsTheRoundAndIsNoSpeed() throws Exception {
        WholeSaleRound round = check(atRest(Design.REDIS_QUEUE), load(5), Map.of("o1", 1_100L, "o2", 1_100L,
                "o3", 1_100L));

        assertThat(round.failures()).containsExactly("5 failed attempts");
        assertThat(round.load().requestsPerSecond()).as("3 winners in a second; the 5 failed are no speed")
                .isEqualTo(3);
    }

    /** A design that answers before it decides was seen deciding before the answer: its end point lies. */
    @Test
    void aDecisionSeenBeforeItsAnswerFailsTheRound() throws Exception {
        WholeSaleRound round = check(atRest(Design.SECKILL), load(0), Map.of("o1", 999L, "o2", 1_100L, "o3", 1_100L));

        assertThat(round.earlyDecisions()).isEqualTo(1);
        assertThat(round.failures()).containsExactly("1 decided before their answer");
    }

    /** naive answers after its commit: the decision may be seen first, and it has no drain. */
    @Test
    void aDesignThatAnswersAfterDecidingHasNoDrain() throws Exception {
        WholeSaleRound round = check(atRest(Design.NAIVE), load(0), Map.of("o1", 999L, "o2", 1_000L, "o3", 990L));

        assertThat(round.failures()).isEmpty();
        assertThat(round.drainP99Ms()).isNaN();
    }

    private static WholeSaleRound check(StoresAfterTheSale stores, WholeSaleLoad.Outcome load, Map<String, Long> at)
            throws Exception {
        return WholeSaleRound.check(
                stores, 1, WholeSaleRound.Phase.WARM, load, at, List.of(SKU_A, SKU_B), 20, 3, 100);
    }

    /** The three winners, answered in one second, and {@code failed} failed attempts. */
    private static WholeSaleLoad.Outcome load(long failed) {
        Histogram winners = new Histogram(3);
        ACCEPTED.forEach(order -> winners.recordValue(1_000_000));
        return new WholeSaleLoad.Outcome(winners, new Histogram(3), failed, 100, ACCEPTED, new long[0]);
    }

    /** Stores that hold exactly the three winners' units. */
    private static StoresAfterTheSale atRest(Design design) {
        return new StoresAfterTheSale(
                design, Map.of(SKU_A, 3L, SKU_B, 3L), Map.of("1:ann", 2L, "1:bob", 1L, "2:cid", 3L), Map.of());
    }

    /** What a design's stores hold after a sale, as given. */
    private record StoresAfterTheSale(
            Design design, Map<Long, Long> sold, Map<String, Long> perBuyer, Map<Long, Long> apart)
            implements SaleDesign {

        @Override
        public int port() {
            return 0;
        }

        @Override
        public void defineSales(List<Long> skus, int units, int perBuyer) {
            throw new UnsupportedOperationException("the sale is over");
        }

        @Override
        public Map<String, String> passes(List<WholeSaleLoad.Attempt> attempts) {
            throw new UnsupportedOperationException("the sale is over");
        }

        @Override
        public Map<String, Instant> committed(Collection<String> orderIds) {
            throw new UnsupportedOperationException("the decisions were watched during the sale");
        }

        @Override
        public Map<Long, Long> soldUnits(List<Long> skus) {
            return sold;
        }

        @Override
        public Map<String, Long> unitsPerBuyer(List<Long> skus) {
            return perBuyer;
        }

        @Override
        public Map<Long, Long> drift(List<Long> skus) {
            return apart;
        }

        @Override
        public void close() {
        }
    }
}
