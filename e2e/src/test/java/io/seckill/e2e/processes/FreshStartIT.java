package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.HttpApi;
import io.seckill.processdriver.SeckillProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code bin/seckill all --fresh}, the README's way to start empty, on a data directory that exists. */
class FreshStartIT {

    private static final long SKU = 4_100_000_001L;

    @Test
    void freshTwiceInARowComesUpEmptyBothTimes() throws Exception {
        Path root = ProcessCluster.REPOSITORY.resolve("e2e/target/processes/fresh-" + UUID.randomUUID());
        Map<String, String> environment = ProcessCluster.serviceSettings("-Xmx768m -XX:+UseSerialGC")
                .dataDirectory(root.resolve("data"))
                .asMap();
        Files.createDirectories(root.resolve("data"));

        try (SeckillProcess first = SeckillProcess.start(
                ProcessCluster.REPOSITORY, "fresh-first", "all", environment, root.resolve("logs"), "--fresh")) {
            ProcessCluster.awaitReady(first);
            HttpApi http = ProcessCluster.buyersApi(first);
            assertThat(http.openSale(SKU, 5, 1).status()).isEqualTo(201);
            assertThat(first.stop(Duration.ofMinutes(1))).as("stops on SIGTERM").isTrue();
        }

        try (SeckillProcess second = SeckillProcess.start(
                ProcessCluster.REPOSITORY, "fresh-second", "all", environment, root.resolve("logs"), "--fresh")) {
            ProcessCluster.awaitReady(second);
            HttpApi http = ProcessCluster.buyersApi(second);
            assertThat(http.figures(SKU).status()).as("the first run's sale is gone").isEqualTo(404);
            assertThat(http.openSale(SKU, 5, 1).status()).as("the same SKU defined anew").isEqualTo(201);
        }
    }
}
