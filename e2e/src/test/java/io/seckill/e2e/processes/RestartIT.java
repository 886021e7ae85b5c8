package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.processdriver.SeckillProcess;
import io.seckill.e2e.processes.SaleFixture.Bought;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What was sold stays sold across restarts: of the whole run command, of one killed service, of the killed servers. */
class RestartIT {

    private static final Duration DECIDED = Duration.ofMinutes(2);

    @Test
    void theRunCommandStoppedMidSaleKeepsSalesOrdersAndStatusesAndSellsOn() throws Exception {
        Path root = ProcessCluster.REPOSITORY.resolve("e2e/target/processes/restart-" + UUID.randomUUID());
        Map<String, String> environment = ProcessCluster.serviceSettings("-Xmx768m -XX:+UseSerialGC").dataDirectory(root.resolve("data")).asMap();
        SaleFixture sale;
        List<Bought> firstOrders;
        try (SeckillProcess first = SeckillProcess.start(ProcessCluster.REPOSITORY, "all-first", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(first);
            sale = SaleFixture.open(ProcessCluster.buyersApi(first), 50, "restart");
            firstOrders = sale.buy(30);
            // Stopped at once: some of these orders are still on their way through the pipeline.
            assertThat(first.stop(Duration.ofMinutes(1))).as("stops on SIGTERM").isTrue();
        }

        try (SeckillProcess second = SeckillProcess.start(ProcessCluster.REPOSITORY, "all-second", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(second);
            SaleFixture restarted = sale.through(ProcessCluster.buyersApi(second));
            assertThat(firstOrders).doesNotContainNull();
            await().atMost(DECIDED).untilAsserted(() -> {
                for (Bought order : firstOrders) {
                    assertThat(restarted.orderStatus(order)).as(order.toString()).isEqualTo("CONFIRMED");
                }
            });
            assertThat(restarted.buy(30).stream().filter(Objects::nonNull)).as("the 20 units left, sold on").hasSize(20);
            await().atMost(DECIDED).untilAsserted(() -> assertThat(restarted.figures()).containsAllEntriesOf(SaleFixture.settled(50, 50)));
        }
    }

    @Test
    void aServiceKilledWithKill9AndRestartedResumesWhereItWas() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("kill-restart", Map.of())) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            SaleFixture sale = SaleFixture.open(services.http(), 40, "killed");
            assertThat(sale.buy(10)).doesNotContainNull();

            services.sink().kill();
            assertThat(sale.buy(10)).as("accepted while the sink is down").doesNotContainNull();
            ProcessCluster.awaitReady(cluster.launch("db-sink-restarted", "db-sink"));

            await().atMost(DECIDED).untilAsserted(() -> assertThat(sale.figures()).containsAllEntriesOf(SaleFixture.settled(40, 20)));
        }
    }

    @Test
    void theServersKilledWithKill9AndStartedAgainKeepTheirDataAndTheServicesCarryOn() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("servers-killed", Map.of())) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            SaleFixture sale = SaleFixture.open(services.http(), 40, "servers");
            assertThat(sale.buy(10)).doesNotContainNull();
            await().atMost(DECIDED).until(() -> sale.confirmedQuantity() == 10);

            // mysqld and redis-server outlive the killed JVM; the second start stops them and takes their data over.
            cluster.killServersAndStartThemAgain();

            ProcessCluster.awaitReady(services.all().toArray(SeckillProcess[]::new));
            // A pooled connection to the old servers fails on its first use: a buy that meets one is refused
            // (503 for MySQL, 500 for a broken Redis pipeline) and reserved nothing, as the stores below show.
            // Every other buy is accepted, and what was accepted is what is sold.
            List<Integer> after = sale.statuses(20);
            assertThat(after).isSubsetOf(202, 500, 503).contains(202);
            int sold = 10 + (int) after.stream().filter(status -> status == 202).count();
            await().atMost(DECIDED).untilAsserted(() -> assertThat(sale.figures()).containsAllEntriesOf(SaleFixture.settled(40, sold)));
            assertThat(services.all()).as("the services rode it out").allMatch(SeckillProcess::alive);
        }
    }
}
