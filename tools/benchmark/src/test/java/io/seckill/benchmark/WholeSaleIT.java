package io.seckill.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.seckill.processdriver.SeckillProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The whole-sale comparison at a small size, every design a process of its own on the same servers, as
 * {@code mvn -q -pl :benchmark exec:java@whole-sale} runs it: each sells exactly its stock, answers every
 * buyer, loses no accepted order and keeps every buyer within the limit, with its stores agreeing at rest.
 * The speed figures are the benchmark's business; what is checked here is that each design in the
 * comparison is a correct one, that the sale's checks find what the stores hold, and that the no-op design beside
 * them answers every buyer and sells nothing.
 */
class WholeSaleIT {

    private static final int UNITS = 40;
    private static final int BUYERS = 300;
    private static final int ATTEMPTS = 2;
    private static final Duration DRAIN_BOUND = Duration.ofSeconds(30);

    @Test
    void everyDesignSellsExactlyItsStockToBuyersWithinTheirLimit() throws Exception {
        WholeSaleBenchmark sale = new WholeSaleBenchmark();
        new CommandLine(sale)
                .parseArgs(
                        "--repository",
                        SeckillProcess.repositoryOfModuleUnderTest().toString(),
                        "--units",
                        Integer.toString(UNITS),
                        "--skus",
                        "2",
                        "--buyers",
                        Integer.toString(BUYERS),
                        "--attempts",
                        Integer.toString(ATTEMPTS),
                        "--connections",
                        "8",
                        "--cold-rounds",
                        "1",
                        "--rounds",
                        "1",
                        "--warmup-rounds",
                        "0",
                        // The cold rounds on equal terms warm every design with this many buys first.
                        "--equal-warmup-requests",
                        "100",
                        // The suite's servers are new for this test alone: no sale of each design on them first.
                        "--servers-cold",
                        "--seckill-java-opts",
                        "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                        // A short warm-up: the cold round still starts from an ingress that warmed up, in the suite's
                        // time.
                        "--seckill-setting",
                        "SECKILL_INGRESS_WARMUP_REQUESTS=100");

        List<WholeSaleRound> rounds = sale.run();

        // A cold round on fresh processes as shipped, one on fresh processes on equal terms, then a warm one on the
        // same processes.
        assertThat(rounds)
                .extracting(WholeSaleRound::design, WholeSaleRound::phase)
                .containsExactly(
                        tuple(Design.SECKILL, WholeSaleRound.Phase.COLD_AS_SHIPPED),
                        tuple(Design.NAIVE, WholeSaleRound.Phase.COLD_AS_SHIPPED),
                        tuple(Design.REDIS_QUEUE, WholeSaleRound.Phase.COLD_AS_SHIPPED),
                        tuple(Design.NO_OP, WholeSaleRound.Phase.COLD_AS_SHIPPED),
                        tuple(Design.SECKILL, WholeSaleRound.Phase.COLD_EQUAL),
                        tuple(Design.NAIVE, WholeSaleRound.Phase.COLD_EQUAL),
                        tuple(Design.REDIS_QUEUE, WholeSaleRound.Phase.COLD_EQUAL),
                        tuple(Design.NO_OP, WholeSaleRound.Phase.COLD_EQUAL),
                        tuple(Design.SECKILL, WholeSaleRound.Phase.WARM),
                        tuple(Design.NAIVE, WholeSaleRound.Phase.WARM),
                        tuple(Design.REDIS_QUEUE, WholeSaleRound.Phase.WARM),
                        tuple(Design.NO_OP, WholeSaleRound.Phase.WARM));
        assertThat(rounds).allSatisfy(round ->
                assertThat(round.failures()).as("%s %s", round.phase(), round.design()).isEmpty());
        // The limit beside them answers every buyer sold out and keeps nothing.
        assertThat(rounds).filteredOn(round -> round.design() == Design.NO_OP).allSatisfy(round -> {
            assertThat(round.losers()).isEqualTo(BUYERS * ATTEMPTS);
            assertThat(round.winners() + round.failed() + round.sold()).isZero();
        });
        assertThat(rounds).filteredOn(round -> round.design() != Design.NO_OP).allSatisfy(round -> {
            assertThat(round.failed())
                    .as("%s: attempts not answered 2xx or 409", round.design())
                    .isZero();
            assertThat(round.winners() + round.losers())
                    .as("%s: answers", round.design())
                    .isEqualTo(BUYERS * ATTEMPTS);
            assertThat(round.sold()).as("%s: units sold", round.design()).isEqualTo(UNITS);
            assertThat(round.oversold()).as("%s: oversold", round.design()).isZero();
            assertThat(round.lost())
                    .as("%s: accepted but not in MySQL", round.design())
                    .isZero();
            assertThat(round.overLimit())
                    .as("%s: buyers over the limit", round.design())
                    .isZero();
            assertThat(round.drift())
                    .as("%s: Redis and MySQL apart at rest", round.design())
                    .isZero();
        });
        // Decisions seen by the benchmark's own watch: a drain of seconds, not hours; naive's answer is its decision.
        assertThat(rounds)
                .filteredOn(round -> round.design() == Design.SECKILL || round.design() == Design.REDIS_QUEUE)
                .allSatisfy(round -> assertThat(round.drainP99Ms())
                        .as("%s: drain p99 ms", round.design())
                        .isBetween(0.0, (double) DRAIN_BOUND.toMillis()));
    }
}
