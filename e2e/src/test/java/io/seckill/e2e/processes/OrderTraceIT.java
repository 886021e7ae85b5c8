package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.ingress.HttpApi;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.schemas.trace.TraceParent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One order followed through the four service processes by its trace: the buyer's {@code traceparent} is continued by
 * the ingress, carried by the outbox row and the Kafka headers, and every JSON log line about the order, in every
 * service, names the order, its SKU, its buyer and that trace, down to its cancellation's return of stock.
 */
class OrderTraceIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SKU = 4_200_000_001L;

    @Test
    void oneOrdersLinesInEveryServiceShareItsTraceId() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start(
                "trace", Map.of("SECKILL_LOG_FORMAT", "json", "SECKILL_ORDER_TRAIL_LEVEL", "INFO"))) {
            ProcessCluster.OneOfEach services = cluster.launchOneOfEach();
            HttpApi http = services.http();
            assertThat(http.openSale(SKU, 5, 1).status()).isEqualTo(201);
            TraceParent caller = TraceParent.start();
            HttpApi.Reply bought = http.buyTraced(SKU, "traced-buyer", 1, caller.toString());
            assertThat(bought.status()).isEqualTo(202);
            String orderId = bought.orderId();

            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                for (SeckillProcess service : services.all()) {
                    assertThat(linesAbout(service, orderId))
                            .as(service.name() + " logged about the order")
                            .isNotEmpty();
                }
            });
            assertThat(http.cancel("traced-buyer", orderId, null).status()).isEqualTo(200);
            await().atMost(Duration.ofMinutes(1))
                    .untilAsserted(() -> assertThat(linesAbout(services.reconciler(), orderId))
                            .as("the cancellation's return of stock, on the order's trail")
                            .anySatisfy(line -> assertThat(
                                            line.path("formattedMessage").asText())
                                    .contains("CANCELLED")));
            for (SeckillProcess service : services.all()) {
                assertThat(linesAbout(service, orderId)).as(service.name()).allSatisfy(line -> {
                    JsonNode context = line.path("mdc");
                    assertThat(context.path("traceId").asText()).isEqualTo(caller.traceId());
                    assertThat(context.path("skuId").asText()).isEqualTo(Long.toString(SKU));
                    assertThat(context.path("userId").asText()).isEqualTo("traced-buyer");
                });
            }
        }
    }

    /** The service's JSON log lines whose context names the order. */
    private static List<JsonNode> linesAbout(SeckillProcess service, String orderId) {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : service.output().split("\n", -1)) {
            if (line.startsWith("{") && line.contains(orderId)) {
                try {
                    JsonNode parsed = JSON.readTree(line);
                    if (orderId.equals(parsed.path("mdc").path("orderId").asText())) {
                        lines.add(parsed);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("not a JSON log line: " + line, e);
                }
            }
        }
        return lines;
    }
}
