package io.seckill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/** The ingress's HTTP API as a buyer and an admin use it. */
final class HttpApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;

    HttpApi(int port) {
        this.base = "http://localhost:" + port;
    }

    /** A sale that is open now. */
    Reply openSale(long skuId, int stock, int perUserLimit) {
        Instant now = Instant.now();
        return send(HttpRequest.newBuilder(URI.create(base + "/admin/v1/skus/" + skuId))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"sku " + skuId + "\",\"stock\":" + stock
                        + ",\"perUserLimit\":" + perUserLimit + ",\"startsAt\":\"" + now.minusSeconds(60)
                        + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\"}")));
    }

    Reply buy(long skuId, String userId, int quantity) {
        return send(HttpRequest.newBuilder(URI.create(base + "/api/v1/skus/" + skuId + "/orders"))
                .header("Content-Type", "application/json")
                .header("X-User-Id", userId)
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + quantity + "}")));
    }

    Reply order(String orderId) {
        return send(HttpRequest.newBuilder(URI.create(base + "/api/v1/orders/" + orderId)).GET());
    }

    Reply figures(long skuId) {
        return send(HttpRequest.newBuilder(URI.create(base + "/admin/v1/skus/" + skuId)).GET());
    }

    String orderStatus(String orderId) {
        return order(orderId).json().path("status").asText();
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Reply(int status, String contentType, String body) {

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        String code() {
            return json().path("code").asText();
        }

        String orderId() {
            return json().path("orderId").asText();
        }
    }
}
