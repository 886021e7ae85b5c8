package io.seckill.faultmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.processdriver.SeckillProcess;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The randomized fault run's lean version: 13 short sales under faults drawn from a fixed seed, every promise held
 * after each, no service ended on its own and no answer a buyer should not get. The seed draws every kind of fault but
 * the servers' kill (the one that takes half a minute), and the run must have struck each of them. The full run is
 * {@code mvn -q -pl :fault-matrix exec:java@random-faults} (200 sales, a new seed each time).
 */
class RandomFaultRunIT {

    private static final long SEED = 20_261_203L;
    private static final int SALES = 13;
    private static final Set<NemesisAction> LEAN_KINDS =
            EnumSet.complementOf(EnumSet.of(NemesisAction.KILL_SERVERS));

    @Test
    void theSeedDrawsEveryKindOfFaultTheLeanRunMayCause() {
        Set<NemesisAction> drawn = RandomFaultRun.plans(SALES, SEED, false).stream()
                .flatMap(plan -> plan.schedule().stream())
                .map(ScheduledFault::action)
                .collect(Collectors.toSet());

        assertThat(drawn).as("the kinds seed " + SEED + " draws").isEqualTo(LEAN_KINDS);
    }

    @Test
    void everyPromiseHoldsThroughThirteenSalesOfRandomFaults() throws Exception {
        RandomFaultRun.Outcome outcome = RandomFaultRun.run(
                SeckillProcess.repositoryOfModuleUnderTest(),
                SALES,
                SEED,
                false,
                "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");

        assertThat(outcome.sales()).isEqualTo(SALES);
        assertThat(outcome.struck().keySet()).as("the kinds of fault struck").isEqualTo(LEAN_KINDS);
        assertThat(outcome.failures()).as("seed " + SEED).isEmpty();
    }
}
