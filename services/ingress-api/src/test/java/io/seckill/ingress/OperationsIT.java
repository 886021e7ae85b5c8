package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.schemas.api.ErrorCode;
import java.net.http.HttpRequest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * /openapi.json matches the real routes and codes; the management port's /ready and /metrics answer, the buyers' port
 * keeps them to itself.
 */
class OperationsIT {

    /** A path item's operations; its other fields (servers, parameters, summary) are not routes. */
    private static final Set<String> HTTP_METHODS =
            Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");

    private final IngressFixture fixture = IngressFixture.get();

    /** The admin listener serves the whole document: every route of both listeners, every code. */
    @Test
    void theOpenApiDocumentDescribesExactlyTheRealRoutesAndEveryErrorCode() {
        JsonNode openApi = fixture.http
                .send(HttpRequest.newBuilder(fixture.http.adminUri("/openapi.json"))
                        .GET())
                .json();
        Set<String> documented = operations(openApi);
        Set<String> codesInResponses = new HashSet<>();
        openApi.path("paths").forEach(path -> path.forEach(operation -> operation.path("responses").forEach(response ->
                response.path("x-error-codes").forEach(code -> codesInResponses.add(code.asText())))));
        openApi.path("x-error-codes-any-path").forEach(code -> codesInResponses.add(code.asText()));
        Set<String> enumerated = new HashSet<>();
        openApi.path("components")
                .path("schemas")
                .path("ErrorCode")
                .path("enum")
                .forEach(code -> enumerated.add(code.asText()));
        Set<String> allCodes = new HashSet<>(Arrays.stream(ErrorCode.values()).map(Enum::name).toList());

        assertThat(documented).isEqualTo(new TreeSet<>(fixture.ingress.routes()));
        assertThat(enumerated).isEqualTo(allCodes);
        assertThat(codesInResponses).isEqualTo(allCodes);
    }

    /** The buyers' listener describes the buyers' API: no admin route, nor the admins' security scheme or schemas. */
    @Test
    void theBuyersDocumentHoldsNothingOfTheAdminApi() {
        JsonNode whole = fixture.http.send(HttpRequest.newBuilder(fixture.http.adminUri("/openapi.json")).GET()).json();
        HttpApi.Reply buyers = fixture.http.get("/openapi.json");

        Set<String> buyersRoutes = operations(whole);
        buyersRoutes.removeIf(route -> route.contains(" /admin/"));
        assertThat(operations(buyers.json())).isNotEmpty().isEqualTo(buyersRoutes);
        assertThat(buyers.body())
                .doesNotContain("/admin/")
                .doesNotContain("adminToken")
                .doesNotContain("SaleDefinition")
                .doesNotContain("StockAdjustment");
        assertThat(buyers.json().path("components").path("schemas").path("ErrorCode").path("enum")).isNotEmpty();
    }

    /** "METHOD /path" of every operation a document describes. */
    private static Set<String> operations(JsonNode openApi) {
        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths =
                        openApi.path("paths").properties().iterator();
                paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            path.getValue().properties().forEach(operation -> {
                if (HTTP_METHODS.contains(operation.getKey())) {
                    documented.add(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            });
        }
        return documented;
    }

    @Test
    void readinessReportsEveryDependencyOnTheManagementPortOnly() {
        HttpApi.Reply ready = fixture.managed.managementHttp().get("/ready");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.json().path("status").asText()).isEqualTo("READY");
        for (String server : new String[] {"redis", "mysql", "kafka"}) {
            assertThat(ready.json().path("checks").path(server).path("up").asBoolean()).as(server).isTrue();
        }
        assertThat(fixture.managed.managementHttp().get("/health").json().path("status").asText()).isEqualTo("UP");
        assertThat(fixture.http.get("/health").json().path("status").asText()).isEqualTo("UP");
        assertThat(fixture.http.get("/ready").status()).isEqualTo(404);
        assertThat(fixture.http.get("/metrics").status()).isEqualTo(404);
    }

    @Test
    void metricsArePrometheusText() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 1, 1);
        fixture.http.buy(sku, "metered", 1);
        fixture.http.buy(sku, "metered-too", 1);

        String metrics = fixture.managed.managementHttp().get("/metrics").body();
        assertThat(metrics)
                .contains(
                        "seckill_http_requests_total{outcome=\"SOLD_OUT\","
                                + "route=\"/api/v1/skus/{skuId}/orders\",service=\"ingress-api\"}")
                .contains(
                        "seckill_http_requests_total{outcome=\"ACCEPTED\","
                                + "route=\"/api/v1/skus/{skuId}/orders\",service=\"ingress-api\"}")
                .contains("seckill_reserve_script_seconds_bucket")
                .contains("seckill_sold_out_fast_path_total")
                .contains("seckill_rate_limited_total")
                .contains("hikaricp_connections_active{pool=\"ingress-api\"")
                .contains("kafka_producer_")
                .contains("jvm_memory_used_bytes")
                .contains("process_cpu_usage");
    }
}
