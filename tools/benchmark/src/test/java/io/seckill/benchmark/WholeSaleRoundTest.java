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

    @Test
    void countsWhatTheStoresHoldAgainstWhatWasSoldAndAnswered() throws Exception {
        List<WholeSaleLoad.Accepted> accepted = List.of(
                new WholeSaleLoad.Accepted("o1", "ann", SKU_A, 2, 1_000),
                new WholeSaleLoad.Accepted("o2", "bob", SKU_A, 1, 1_000),
                new WholeSaleLoad.Accepted("o3", "cid", SKU_B, 3, 1_000));
        WholeSaleLoad.Outcome load =
                new WholeSaleLoad.Outcome(new Histogram(3), new Histogram(3), 0, 100, accepted, new long[0]);
        StoresAfterTheSale stores = new StoresAfterTheSale(
                Map.of("o1", Instant.ofEpochMilli(1_250), "o3", Instant.ofEpochMilli(2_000)),
                Map.of(SKU_A, 22L, SKU_B, 20L),
                Map.of("1:ann", 3L, "1:bob", 4L, "2:cid", 5L),
                Map.of(SKU_A, -3L, SKU_B, 1L));

        WholeSaleRound round = WholeSaleRound.check(stores, 1, false, load, List.of(SKU_A, SKU_B), 20, 3, 100);

        assertThat(round.sold()).isEqualTo(42);
        assertThat(round.oversold()).as("units beyond a SKU's stock").isEqualTo(2);
        assertThat(round.lost()).as("accepted, never in MySQL").isEqualTo(1);
        assertThat(round.overLimit()).as("buyers holding more than the limit").isEqualTo(2);
        assertThat(round.drift()).as("|apart| summed over the SKUs").isEqualTo(4);
        assertThat(round.drainP50Ms()).isEqualTo(250);
        assertThat(round.drainP99Ms()).isEqualTo(1_000);
    }

    /** What a design's stores hold after a sale, as given. */
    private record StoresAfterTheSale(
            Map<String, Instant> committedAt, Map<Long, Long> sold, Map<String, Long> perBuyer, Map<Long, Long> apart)
            implements SaleDesign {

        @Override
        public Design design() {
            return Design.NAIVE;
        }

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
            return committedAt;
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
