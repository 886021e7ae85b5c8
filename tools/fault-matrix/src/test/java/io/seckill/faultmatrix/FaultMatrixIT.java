package io.seckill.faultmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.processdriver.SeckillProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every fault of the matrix at each of its moments, injected into a live sale of its own, each service
 * its own process, on clusters that carried a sale without a fault first: after each, the fault met the sale (counted
 * from outside the code it tests, {@link Landing}), orders taken, every answer one a buyer may get (no 500, no request
 * left hanging), nothing oversold, nothing stuck, no ghost, no drift within 10 s of the repair, and a new sale still
 * works. The same run as {@code mvn -q -pl :fault-matrix exec:java}.
 */
class FaultMatrixIT {

    /** Fewer than the command's 3,000 per row, for the suite's clock: still several times each row's stock. */
    private static final int BUYERS = 1_600;

    @Test
    void everyPromiseHoldsThroughEveryFault() throws Exception {
        List<Fault> faults = List.of(Fault.values());
        List<RowResult> rows = FaultMatrix.run(SeckillProcess.repositoryOfModuleUnderTest(), faults, BUYERS, 16, true,
                "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");

        assertThat(rows)
                .hasSize(faults.stream()
                        .mapToInt(fault -> fault.moments().size())
                        .sum())
                .allSatisfy(row -> assertThat(row.passed()).as(row.toString()).isTrue());
    }
}
