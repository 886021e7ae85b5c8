package io.seckill.faultmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.processdriver.SeckillProcess;
import org.junit.jupiter.api.Test;

/**
 * The randomized fault run's lean version: 13 short sales under faults drawn from a fixed seed (with it, every kind but
 * the servers' kill, the one that takes half a minute, at least once), every promise held after each. The full run is
 * {@code mvn -q -pl :fault-matrix exec:java@random-faults} (200 sales, a new seed each time).
 */
class RandomFaultRunIT {

    private static final long SEED = 20_261_202L;
    private static final int SALES = 13;

    @Test
    void everyPromiseHoldsThroughTwentySalesOfRandomFaults() throws Exception {
        RandomFaultRun.Outcome outcome = RandomFaultRun.run(
                SeckillProcess.repositoryOfModuleUnderTest(),
                SALES,
                SEED,
                false,
                "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");

        assertThat(outcome.sales()).isEqualTo(SALES);
        assertThat(outcome.faults()).isGreaterThanOrEqualTo(SALES);
        assertThat(outcome.failures()).as("seed " + SEED).isEmpty();
    }
}
