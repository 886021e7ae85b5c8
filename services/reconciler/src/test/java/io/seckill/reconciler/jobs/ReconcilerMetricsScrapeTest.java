package io.seckill.reconciler.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seckill.config.Env;
import io.seckill.runtime.management.ManagementServer;
import io.seckill.runtime.management.ProcessMetrics;
import io.seckill.runtime.management.Readiness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The management port's {@code /metrics} answers while the reconciler refreshes its per-SKU and per-group gauges: a
 * scrape that fails blinds every dashboard and alert at once.
 */
class ReconcilerMetricsScrapeTest {

    private static final int SCRAPES = 1_000;
    /** One sale, as the README's walk-through runs: refreshing its row leaves the meter's name with no row a moment. */
    private static final int SKUS = 1;

    @Test
    void scrapesSucceedWhileThePerSkuGaugesAreRefreshed() throws Exception {
        PrometheusMeterRegistry registry = ProcessMetrics.registry("reconciler");
        ReconcilerMetrics metrics = new ReconcilerMetrics(registry, Clock.systemUTC());
        AtomicBoolean scraping = new AtomicBoolean(true);
        try (ManagementServer server = ManagementServer.start(new Env(Map.of()), 0, registry, new Readiness())) {
            CompletableFuture<Void> refreshes = CompletableFuture.runAsync(() -> {
                for (long round = 0; scraping.get(); round++) {
                    metrics.skus(figures(round));
                    metrics.groupLag(Map.of("db-sink", round, "stream-processor", round % 7));
                }
            });
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                    .build();
            Map<String, Integer> failed = new TreeMap<>();
            for (int i = 0; i < SCRAPES; i++) {
                HttpResponse<String> answer = client.send(scrape, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 200) {
                    failed.merge("status " + answer.statusCode(), 1, Integer::sum);
                } else if (!answer.body().contains("seckill_sku_pending_reservations{")) {
                    failed.merge("the SKU's row missing", 1, Integer::sum);
                }
            }
            scraping.set(false);
            refreshes.get();

            assertThat(failed).as("scrapes that failed, by why, of %d", SCRAPES).isEmpty();
        }
    }

    @Test
    void aSkuNoLongerReportedLeavesTheScrape() {
        PrometheusMeterRegistry registry = ProcessMetrics.registry("reconciler");
        ReconcilerMetrics metrics = new ReconcilerMetrics(registry, Clock.systemUTC());

        metrics.skus(List.of(figures(41, 3, 1), figures(42, 5, 1)));
        metrics.skus(List.of(figures(42, 7, 0)));

        assertThat(registry.scrape())
                .contains("seckill_sku_pending_reservations{service=\"reconciler\",sku=\"42\"} 7.0")
                .contains("seckill_sku_drift{service=\"reconciler\",sku=\"42\"} 0.0")
                .doesNotContain("sku=\"41\"");
    }

    /** SKUs whose figures change every round. */
    private static List<SkuFigures> figures(long round) {
        return LongStream.range(0, SKUS)
                .mapToObj(sku -> figures(sku, round % 11, round % 3))
                .toList();
    }

    /** A SKU with {@code pending} units reserved in Redis and {@code drift} more there than MySQL holds. */
    private static SkuFigures figures(long sku, long pending, long drift) {
        long mysqlStock = 100;
        return new SkuFigures(sku, mysqlStock, 0, 0, mysqlStock - pending + drift, pending);
    }
}
