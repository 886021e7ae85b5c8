package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.e2e.processes.SaleFixture.Bought;
import io.seckill.processdriver.SeckillProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What was sold stays sold across a restart of the whole run command. A killed service and the killed servers,
 * each restarted mid-sale, are rows of the fault matrix (FaultMatrixIT), at both moments of a sale.
 */
class RestartIT {

    private static final Duration DECIDED = Duration.ofMinutes(2);

    @Test
    void theRunCommandStoppedMidSaleKeepsSalesOrdersAndStatusesAndSellsOn() throws Exception {
        Path root = ProcessCluster.REPOSITORY.resolve("e2e/target/processes/restart-" + UUID.randomUUID());
        Map<String, String> environment = ProcessCluster.serviceSettings("-Xmx768m -XX:+UseSerialGC")
                .dataDirectory(root.resolve("data"))
                .asMap();
        SaleFixture sale;
        List<Bought> firstOrders;
        try (SeckillProcess first = SeckillProcess.start(
                ProcessCluster.REPOSITORY, "all-first", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(first);
            sale = SaleFixture.open(ProcessCluster.buyersApi(first), 50, "restart");
            firstOrders = sale.buy(30);
            // Stopped at once: some of these orders are still on their way through the pipeline.
            assertThat(first.stop(Duration.ofMinutes(1))).as("stops on SIGTERM").isTrue();
        }

        try (SeckillProcess second = SeckillProcess.start(
                ProcessCluster.REPOSITORY, "all-second", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(second);
            SaleFixture restarted = sale.through(ProcessCluster.buyersApi(second));
            assertThat(firstOrders).doesNotContainNull();
            await().atMost(DECIDED).untilAsserted(() -> {
                for (Bought order : firstOrders) {
                    assertThat(restarted.orderStatus(order)).as(order.toString()).isEqualTo("CONFIRMED");
                }
            });
            // The restarted Redis is not trusted: the sale is closed while the reconciler rebuilds it from MySQL
            // (buyers get 503 SALE_RESTORING, Retry-After 1), and sells on once it holds the 20 units left.
            await().atMost(DECIDED)
                    .untilAsserted(
                            () -> assertThat(restarted.figures()).containsAllEntriesOf(SaleFixture.settled(50, 30)));
            assertThat(restarted.buy(30).stream().filter(Objects::nonNull))
                    .as("the 20 units left, sold on")
                    .hasSize(20);
            await().atMost(DECIDED)
                    .untilAsserted(
                            () -> assertThat(restarted.figures()).containsAllEntriesOf(SaleFixture.settled(50, 50)));
        }
    }
}
