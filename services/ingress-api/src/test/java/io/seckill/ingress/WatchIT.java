package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.ingress.HttpApi.Reply;
import io.seckill.ingress.watch.WatchedInstances;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operator page's feed and files on the admin listener: the figures of a sale as buyers take it, the relay's
 * backlog, each instance's readiness (one that answers, one that does not), and the page, its chart library and the
 * API reference served from their webjars; none of it on the buyers' port, the feed only with an admin token.
 */
class WatchIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void theFeedShowsASaleAsBuyersTakeItAndEachInstanceAsItAnswers() throws IOException {
        int gonePort;
        try (ServerSocket closed = new ServerSocket(0)) {
            gonePort = closed.getLocalPort();
        }
        String instances =
                "peer=http://127.0.0.1:" + fixture.managed.management().port() + ", gone=http://127.0.0.1:" + gonePort;
        try (ManagedIngress watching = fixture.start(Map.of(WatchedInstances.SETTING, instances))) {
            HttpApi http = watching.http();
            long sku = IngressFixture.newSkuId();
            assertThat(http.openSale(sku, 10, 2).status()).isEqualTo(201);
            for (String buyer : List.of("watch-a", "watch-b", "watch-c")) {
                assertThat(http.buy(sku, buyer + sku, 1).status()).isEqualTo(202);
            }

            Reply watch = http.send(HttpRequest.newBuilder(http.adminUri("/admin/v1/watch"))
                    .header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN)
                    .GET());
            assertThat(watch.status()).isEqualTo(200);
            JsonNode sale = sale(watch.json(), sku);
            // No sink runs here: the orders are accepted and wait undecided in the outbox.
            assertThat(sale.path("redisStock").asLong()).isEqualTo(7);
            assertThat(sale.path("pendingReservations").asLong()).isEqualTo(3);
            assertThat(sale.path("mysqlStock").asLong()).isEqualTo(10);
            assertThat(sale.path("acceptedOrders").asLong()).isEqualTo(3);
            assertThat(sale.path("decidedOrders").asLong()).isZero();
            assertThat(sale.path("drift").asLong()).isZero();
            assertThat(sale.path("queue").isNull()).as("no waiting room").isTrue();
            assertThat(watch.json().path("relay").path("backlog").asLong()).isGreaterThanOrEqualTo(3);
            assertThat(watch.json().path("buyAnswers").path("ACCEPTED").asLong())
                    .as("this instance's buys")
                    .isEqualTo(3);
            List<String> seen = new ArrayList<>();
            watch.json()
                    .path("instances")
                    .forEach(instance -> seen.add(instance.path("name").asText() + " "
                            + instance.path("state").asText()));
            assertThat(seen).containsExactly("ingress-api (this instance) READY", "peer READY", "gone UNREACHABLE");
            assertThat(watch.json().path("consumerGroups").path("error").isNull()).isTrue();
        }
    }

    @Test
    void aSaleWithAWaitingRoomShowsItsLine() {
        HttpApi http = fixture.http;
        long sku = IngressFixture.newSkuId();
        Instant startsAt = Instant.now().plus(Duration.ofMinutes(2));
        assertThat(http.defineSaleWithRoom(sku, 10, startsAt, startsAt.plus(Duration.ofHours(1)), 100).status())
                .isEqualTo(201);
        for (String buyer : List.of("queued-a", "queued-b", "queued-c")) {
            assertThat(http.join(buyer, sku).status()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Reply watch = http.send(HttpRequest.newBuilder(http.adminUri("/admin/v1/watch"))
                    .header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN)
                    .GET());
            JsonNode queue = sale(watch.json(), sku).path("queue");
            assertThat(queue.path("admissionPerSecond").asInt()).isEqualTo(100);
            assertThat(queue.path("joined").asLong()).isEqualTo(3);
            assertThat(queue.path("admitted").asLong()).as("before the start").isZero();
            assertThat(queue.path("waiting").asLong()).isEqualTo(3);
        });
    }

    @Test
    void theFeedWantsAnAdminToken() {
        HttpApi http = fixture.http;
        assertThat(http.send(HttpRequest.newBuilder(http.adminUri("/admin/v1/watch")).GET()).status()).isEqualTo(401);
        assertThat(http.send(HttpRequest.newBuilder(http.adminUri("/admin/v1/watch"))
                                .header("Authorization", "Bearer " + HttpApi.tokenFor("a-buyer"))
                                .GET())
                        .status())
                .as("a buyer's token")
                .isEqualTo(401);
    }

    @Test
    void thePagesAreServedOnTheAdminListenerOnly() {
        HttpApi http = fixture.http;
        Reply page = http.send(HttpRequest.newBuilder(http.adminUri("/watch/")).GET());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("seckill: live sales", "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js");
        Reply reference = http.send(HttpRequest.newBuilder(http.adminUri("/api-docs/")).GET());
        assertThat(reference.status()).isEqualTo(200);
        assertThat(reference.body()).contains("/webjars/swagger-ui/5.35.0/swagger-ui-bundle.js");
        for (String asset : List.of(
                "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js",
                "/webjars/swagger-ui/5.35.0/swagger-ui-bundle.js",
                "/watch/watch.js",
                "/api-docs/reference.js")) {
            assertThat(http.send(HttpRequest.newBuilder(http.adminUri(asset)).GET()).status()).as(asset).isEqualTo(200);
        }
        assertThat(http.get("/watch/").status()).isEqualTo(404);
        assertThat(http.get("/api-docs/").status()).isEqualTo(404);
    }

    /**
     * Pages, assets, the document and the API's answers alike, a refusal included; nothing but the public libraries
     * cached.
     */
    @Test
    void everyAdminAnswerForbidsFramingSniffingCachingAndForeignScripts() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String path : List.of(
                "/watch/",
                "/watch/watch.js",
                "/api-docs/",
                "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js",
                "/openapi.json",
                "/admin/v1/watch",
                "/admin/v1/audit")) {
            for (boolean authorized : List.of(true, false)) {
                HttpRequest.Builder request = HttpRequest.newBuilder(fixture.http.adminUri(path)).GET();
                if (authorized) {
                    request.header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN);
                }
                HttpHeaders headers = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).headers();
                String what = path + (authorized ? "" : " without a token");
                PageHeadersAssert.assertPageHeaders(headers, what);
                if (!path.startsWith("/webjars/")) {
                    assertThat(headers.firstValue("Cache-Control"))
                            .as(what + ": public versioned libraries alone are cached")
                            .contains("no-store");
                }
            }
        }
    }

    private static JsonNode sale(JsonNode watch, long sku) {
        for (JsonNode sale : watch.path("sales")) {
            if (sale.path("skuId").asLong() == sku) {
                return sale;
            }
        }
        throw new AssertionError("SKU " + sku + " is not on the page: " + watch);
    }
}
