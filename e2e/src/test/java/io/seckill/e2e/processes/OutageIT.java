package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.processdriver.SeckillProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The broker stalls (its process stopped with SIGSTOP; Redis and MySQL run on): the consumer services
 * report not-ready meanwhile, stay alive, and drain what was sold during the outage once it is back,
 * without a restart. The fault matrix stalls it 90 s, past every client timeout, mid-sale and in a
 * sale's first second; this test watches readiness through a shorter outage.
 */
class OutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(30);

    @Test
    void aBrokerOutageIsWaitedOutNotReadyThenDrainedWithoutARestart() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("outage", Map.of())) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            SeckillProcess sink = services.sink();
            SaleFixture sale = SaleFixture.open(services.http(), 30, "outage");
            assertThat(sale.statuses(5)).containsOnly(202);
            await().atMost(Duration.ofMinutes(1)).until(() -> sale.confirmedQuantity() == 5);

            cluster.servers().pause();
            Instant pausedAt = Instant.now();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> !sink.ready());
                assertThat(sink.readiness().orElseThrow().detail("kafka")).isNotEqualTo("reachable");
                // Buyers are still served: Redis and MySQL hold their orders until Kafka is back.
                assertThat(sale.statuses(10)).containsOnly(202);
                Duration rest = OUTAGE.minus(Duration.between(pausedAt, Instant.now()));
                await().during(rest).atMost(rest.plusSeconds(10))
                        .until(() -> services.all().stream().allMatch(SeckillProcess::alive) && !sink.ready());
            } finally {
                cluster.servers().resume();
            }

            ProcessCluster.awaitReady(services.all().toArray(SeckillProcess[]::new));
            await().atMost(Duration.ofMinutes(2))
                    .untilAsserted(() -> assertThat(sale.figures()).containsAllEntriesOf(SaleFixture.settled(30, 15)));
            assertThat(services.all()).as("the same processes, never restarted").allMatch(SeckillProcess::alive);
        }
    }
}
