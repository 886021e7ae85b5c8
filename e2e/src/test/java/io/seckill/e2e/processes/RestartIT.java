package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.benchmark.processes.SeckillProcess;
import io.seckill.ingress.HttpApi;
import io.seckill.runtime.Concurrently;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What was sold stays sold across restarts: of the whole run command, of one killed service, of the killed servers. */
class RestartIT {

    private static final Duration DECIDED = Duration.ofMinutes(2);

    @Test
    void theRunCommandStoppedMidSaleKeepsSalesOrdersAndStatusesAndSellsOn() throws Exception {
        Path root = ProcessCluster.REPOSITORY.resolve("e2e/target/processes/restart-" + UUID.randomUUID());
        Map<String, String> environment = Map.of(
                "SECKILL_DATA_DIR", root.resolve("data").toString(),
                "JAVA_OPTS", "-Xmx768m -XX:+UseSerialGC",
                "SECKILL_MANAGEMENT_PORT", "0",
                "SECKILL_HTTP_PORT", "0",
                "SECKILL_TOKEN_SECRET", HttpApi.TOKEN_SECRET,
                "SECKILL_ADMIN_TOKEN", HttpApi.ADMIN_TOKEN,
                "SECKILL_RATE_LIMIT_PER_USER", "0",
                "SECKILL_RATE_LIMIT_PER_ADDRESS", "0");
        long sku = System.currentTimeMillis() % 1_000_000 * 100;
        AtomicInteger buyer = new AtomicInteger();
        List<Bought> firstOrders;
        try (SeckillProcess first = SeckillProcess.start(ProcessCluster.REPOSITORY, "all-first", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(first);
            HttpApi http = ProcessCluster.buyersApi(first);
            assertThat(http.openSale(sku, 50, 1).status()).isEqualTo(201);
            firstOrders = Concurrently.run(30, () -> accepted(http, sku, "restart-" + buyer.incrementAndGet()));
            // Stopped at once: some of these orders are still on their way through the pipeline.
            assertThat(first.stop(Duration.ofMinutes(1))).as("stops on SIGTERM").isTrue();
        }

        try (SeckillProcess second = SeckillProcess.start(ProcessCluster.REPOSITORY, "all-second", "all", environment, root.resolve("logs"))) {
            ProcessCluster.awaitReady(second);
            HttpApi http = ProcessCluster.buyersApi(second);
            assertThat(firstOrders).doesNotContainNull();
            await().atMost(DECIDED).untilAsserted(() -> {
                for (Bought order : firstOrders) {
                    assertThat(http.orderStatus(order.userId(), order.orderId())).as(order.toString()).isEqualTo("CONFIRMED");
                }
            });
            List<Bought> later = Concurrently.run(30, () -> accepted(http, sku, "restart-" + buyer.incrementAndGet()));
            assertThat(later.stream().filter(Objects::nonNull)).as("the 20 units left, sold on").hasSize(20);
            await().atMost(DECIDED).untilAsserted(() -> assertThat(http.figures(sku).json().toString())
                    .contains("\"mysqlStock\":0", "\"redisStock\":0", "\"pendingReservations\":0", "\"confirmedQuantity\":50"));
        }
    }

    @Test
    void aServiceKilledWithKill9AndRestartedResumesWhereItWas() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("kill-restart", Map.of())) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            HttpApi http = services.http();
            long sku = System.currentTimeMillis() % 1_000_000 * 100 + 1;
            assertThat(http.openSale(sku, 40, 1).status()).isEqualTo(201);
            AtomicInteger buyer = new AtomicInteger();
            List<Bought> before = Concurrently.run(10, () -> accepted(http, sku, "killed-" + buyer.incrementAndGet()));

            services.sink().kill();
            List<Bought> meanwhile = Concurrently.run(10, () -> accepted(http, sku, "killed-" + buyer.incrementAndGet()));
            SeckillProcess restarted = cluster.launch("db-sink-restarted", "db-sink");
            ProcessCluster.awaitReady(restarted);

            await().atMost(DECIDED).untilAsserted(() -> assertThat(http.figures(sku).json().toString())
                    .contains("\"mysqlStock\":20", "\"redisStock\":20", "\"pendingReservations\":0", "\"confirmedQuantity\":20"));
            assertThat(before).doesNotContainNull();
            assertThat(meanwhile).doesNotContainNull();
        }
    }

    @Test
    void theServersKilledWithKill9AndStartedAgainKeepTheirDataAndTheServicesCarryOn() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("servers-killed", Map.of())) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            HttpApi http = services.http();
            long sku = System.currentTimeMillis() % 1_000_000 * 100 + 3;
            assertThat(http.openSale(sku, 40, 1).status()).isEqualTo(201);
            AtomicInteger buyer = new AtomicInteger();
            assertThat(Concurrently.run(10, () -> accepted(http, sku, "servers-" + buyer.incrementAndGet()))).doesNotContainNull();
            await().atMost(DECIDED).untilAsserted(() -> assertThat(http.figures(sku).json().path("confirmedQuantity").asInt()).isEqualTo(10));

            // mysqld and redis-server outlive the killed JVM; the second start stops them and takes their data over.
            cluster.killServersAndStartThemAgain();

            ProcessCluster.awaitReady(services.all().toArray(SeckillProcess[]::new));
            // A pooled connection to the old servers fails on its first use: a buy that meets one is refused
            // (503 for MySQL, 500 for a broken Redis pipeline) and reserved nothing, as the stores below show.
            // Every other buy is accepted, and what was accepted is what is sold.
            List<Integer> after = Concurrently.run(20, () -> http.buy(sku, "servers-" + buyer.incrementAndGet(), 1).status());
            assertThat(after).isSubsetOf(202, 500, 503).contains(202);
            int sold = 10 + (int) after.stream().filter(status -> status == 202).count();
            await().atMost(DECIDED).untilAsserted(() -> assertThat(http.figures(sku).json().toString())
                    .contains("\"mysqlStock\":" + (40 - sold), "\"redisStock\":" + (40 - sold), "\"pendingReservations\":0",
                            "\"confirmedQuantity\":" + sold));
            assertThat(services.all()).as("the services rode it out").allMatch(SeckillProcess::alive);
        }
    }

    /** @return the accepted order, or null when the buy was refused */
    private static Bought accepted(HttpApi http, long sku, String userId) {
        HttpApi.Reply reply = http.buy(sku, userId, 1);
        return reply.status() == 202 ? new Bought(userId, reply.orderId()) : null;
    }

    private record Bought(String userId, String orderId) {
    }
}
