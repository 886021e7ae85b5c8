package io.seckill.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.ingress.http.Reply;
import io.seckill.processdriver.SalePassClient;
import io.seckill.schemas.trace.TraceParent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** The ingress's HTTP API as buyers (signed tokens) and an admin use it. */
public final class HttpApi {

    /** The secrets the test fixtures configure their ingresses with. */
    public static final String TOKEN_SECRET = "test-token-secret-of-at-least-32-bytes";
    public static final String ADMIN_TOKEN_SECRET = "test-admin-token-secret-of-at-least-32-bytes";
    private static final TokenMinter TOKENS = TokenMinter.development(TOKEN_SECRET);
    /** An admin's token, valid for the longest an admin's may live, longer than any test JVM runs. */
    public static final String ADMIN_TOKEN = TokenMinter.developmentAdmin(ADMIN_TOKEN_SECRET)
            .admin("test-admin", TokenSettings.DEFAULT_ADMIN_MAX_LIFETIME);

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;
    private final String adminBase;

    /** @param adminPort the admin listener's port, on this host */
    public HttpApi(int port, int adminPort) {
        this.base = "http://localhost:" + port;
        this.adminBase = "http://127.0.0.1:" + adminPort;
    }

    public static String tokenFor(String userId) {
        return TOKENS.buyer(userId, Duration.ofHours(1));
    }

    public URI uri(String path) {
        return URI.create(base + path);
    }

    /** A path of the admin listener. */
    public URI adminUri(String path) {
        return URI.create(adminBase + path);
    }

    /**
     * A sale that is open now, bought without passes (the tests of passes define their sales with {@link
     * #defineSale(long, int, int, Instant, Instant, boolean)}).
     */
    public Reply openSale(long skuId, int stock, int perUserLimit) {
        Instant now = Instant.now();
        return defineSale(skuId, stock, perUserLimit, now.minusSeconds(60), now.plusSeconds(3600));
    }

    /** A sale bought without passes. */
    public Reply defineSale(long skuId, int stock, int perUserLimit, Instant startsAt, Instant endsAt) {
        return defineSale(skuId, stock, perUserLimit, startsAt, endsAt, false);
    }

    public Reply defineSale(
            long skuId, int stock, int perUserLimit, Instant startsAt, Instant endsAt, boolean passRequired) {
        return defineSale(
                skuId,
                "\"stock\":" + stock + ",\"perUserLimit\":" + perUserLimit + ",\"startsAt\":\"" + startsAt
                        + "\",\"endsAt\":\"" + endsAt + "\",\"passRequired\":" + passRequired);
    }

    /** A sale that is open now, bought without passes, its stock split over {@code stockBuckets} buckets. */
    public Reply openSale(long skuId, int stock, int perUserLimit, int stockBuckets) {
        Instant now = Instant.now();
        return defineSale(
                skuId,
                "\"stock\":" + stock + ",\"perUserLimit\":" + perUserLimit + ",\"startsAt\":\"" + now.minusSeconds(60)
                        + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\",\"passRequired\":false,\"stockBuckets\":"
                        + stockBuckets);
    }

    /** A sale with passes and a waiting room admitting {@code admissionPerSecond} buyers a second. */
    public Reply defineSaleWithRoom(long skuId, int stock, Instant startsAt, Instant endsAt, int admissionPerSecond) {
        return defineSale(
                skuId,
                "\"stock\":" + stock + ",\"perUserLimit\":1,\"startsAt\":\"" + startsAt + "\",\"endsAt\":\"" + endsAt
                        + "\",\"passRequired\":true,\"admissionPerSecond\":" + admissionPerSecond);
    }

    /** {@code POST /api/v1/skus/{skuId}/queue} as the buyer. */
    public Reply join(String userId, long skuId) {
        return send(HttpRequest.newBuilder(uri("/api/v1/skus/" + skuId + "/queue"))
                .header("Authorization", "Bearer " + tokenFor(userId))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code GET /api/v1/skus/{skuId}/queue/me} as the buyer, showing {@code ticket}. */
    public Reply standing(String userId, long skuId, String ticket) {
        return send(HttpRequest.newBuilder(uri("/api/v1/skus/" + skuId + "/queue/me"))
                .header("Authorization", "Bearer " + tokenFor(userId))
                .header(QueueTickets.HEADER, ticket),
                Duration.ofSeconds(3));
    }

    /** A pass got as a browser gets it, showing the buyer's queue ticket. */
    public String passFor(String userId, long skuId, String ticket) {
        return passShowing(skuId, Map.of("Authorization", "Bearer " + tokenFor(userId), QueueTickets.HEADER, ticket));
    }

    /** {@code POST /api/v1/skus/{skuId}/passes} as the buyer, with {@code body} and {@code ticket} shown. */
    public Reply passWithTicket(String userId, long skuId, String body, String ticket) {
        return send(HttpRequest.newBuilder(uri("/api/v1/skus/" + skuId + "/passes"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + tokenFor(userId))
                .header(QueueTickets.HEADER, ticket)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A sale of {@code fields} (the JSON members after its name). */
    public Reply defineSale(long skuId, String fields) {
        return send(HttpRequest.newBuilder(adminUri("/admin/v1/skus/" + skuId))
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"sku " + skuId + "\"," + fields + "}")));
    }

    public Reply buy(long skuId, String userId, int quantity) {
        return send(buyRequest(skuId, userId, quantity));
    }

    /** A buy showing {@code pass} in the pass header. */
    public Reply buyWithPass(long skuId, String userId, int quantity, String pass) {
        return send(buyRequest(skuId, userId, quantity).header(SalePasses.HEADER, pass));
    }

    /** A pass for the buyer to SKU {@code skuId}, got as a browser gets it (challenge, solution, pass). */
    public String passFor(String userId, long skuId) {
        return passShowing(skuId, Map.of("Authorization", "Bearer " + tokenFor(userId)));
    }

    private String passShowing(long skuId, Map<String, String> headers) {
        try {
            return new SalePassClient(client, URI.create(base)).passFor(skuId, headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code POST /api/v1/skus/{skuId}/pass-challenges} as the buyer. */
    public Reply challenge(String userId, long skuId) {
        return postAs(userId, "/api/v1/skus/" + skuId + "/pass-challenges", "{}");
    }

    /** {@code POST /api/v1/skus/{skuId}/passes} as the buyer, with {@code body}. */
    public Reply pass(String userId, long skuId, String body) {
        return postAs(userId, "/api/v1/skus/" + skuId + "/passes", body);
    }

    private Reply postAs(String userId, String path, String body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + tokenFor(userId)).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A buy continuing the caller's trace ({@code traceparent}, W3C Trace Context). */
    public Reply buyTraced(long skuId, String userId, int quantity, String traceparent) {
        return send(buyRequest(skuId, userId, quantity).header(TraceParent.HEADER, traceparent));
    }

    public Reply buy(long skuId, String userId, int quantity, String idempotencyKey) {
        return send(buyRequest(skuId, userId, quantity).header("Idempotency-Key", idempotencyKey));
    }

    /**
     * A buy whose request carries {@code X-Forwarded-For}, as through proxies (or forged): each value a header line of
     * its own.
     */
    public Reply buyForwardedFor(long skuId, String userId, int quantity, String... forwardedFor) {
        return send(forwardedFor(buyRequest(skuId, userId, quantity), forwardedFor));
    }

    /** A buy showing {@code token} as it is, whatever it is, with {@code X-Forwarded-For} lines. */
    public Reply buyWithToken(long skuId, String token, String... forwardedFor) {
        return send(forwardedFor(
                HttpRequest.newBuilder(uri("/api/v1/skus/" + skuId + "/orders"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + token)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")),
                forwardedFor));
    }

    private static HttpRequest.Builder forwardedFor(HttpRequest.Builder request, String... lines) {
        for (String line : lines) {
            request.header("X-Forwarded-For", line);
        }
        return request;
    }

    private HttpRequest.Builder buyRequest(long skuId, String userId, int quantity) {
        return HttpRequest.newBuilder(uri("/api/v1/skus/" + skuId + "/orders"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + tokenFor(userId))
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + quantity + "}"));
    }

    /** {@code POST /api/v1/orders/{orderId}/payment}, with an Idempotency-Key unless it is null. */
    public Reply pay(String userId, String orderId, String paymentReference, String idempotencyKey) {
        return send(keyed(
                HttpRequest.newBuilder(uri("/api/v1/orders/" + orderId + "/payment"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + tokenFor(userId))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"paymentReference\":\"" + paymentReference + "\"}")),
                idempotencyKey));
    }

    /** {@code POST /api/v1/orders/{orderId}/cancellation}, with an Idempotency-Key unless it is null. */
    public Reply cancel(String userId, String orderId, String idempotencyKey) {
        return send(keyed(HttpRequest.newBuilder(uri("/api/v1/orders/" + orderId + "/cancellation"))
                .header("Authorization", "Bearer " + tokenFor(userId))
                .POST(HttpRequest.BodyPublishers.noBody()), idempotencyKey));
    }

    private static HttpRequest.Builder keyed(HttpRequest.Builder request, String idempotencyKey) {
        return idempotencyKey == null ? request : request.header("Idempotency-Key", idempotencyKey);
    }

    public Reply order(String userId, String orderId) {
        return send(HttpRequest.newBuilder(uri("/api/v1/orders/" + orderId))
                .header("Authorization", "Bearer " + tokenFor(userId)).GET());
    }

    /** {@code GET /api/v1/orders?skuId=}: the buyer's orders of one SKU. */
    public Reply orders(String userId, long skuId) {
        return send(HttpRequest.newBuilder(uri("/api/v1/orders?skuId=" + skuId))
                .header("Authorization", "Bearer " + tokenFor(userId)).GET());
    }

    public String orderStatus(String userId, String orderId) {
        return order(userId, orderId).json().path("status").asText();
    }

    public Reply figures(long skuId) {
        return send(HttpRequest.newBuilder(adminUri("/admin/v1/skus/" + skuId))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).GET());
    }

    /** The admin's figures of the SKU as numbers by name (mysqlStock, redisStock, pendingReservations, ...). */
    public Map<String, Long> figureValues(long skuId) {
        Map<String, Long> values = new TreeMap<>();
        figures(skuId).json().properties().forEach(field -> {
            if (field.getValue().isNumber()) {
                values.put(field.getKey(), field.getValue().asLong());
            }
        });
        return values;
    }

    public Reply get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public Reply send(HttpRequest.Builder request) {
        return send(request, Duration.ofSeconds(30));
    }

    /** @throws UncheckedIOException when no answer came within {@code timeout} */
    public Reply send(HttpRequest.Builder request, Duration timeout) {
        try {
            HttpRequest sent = request.timeout(timeout).build();
            HttpResponse<String> response = client.send(sent, HttpResponse.BodyHandlers.ofString());
            ApiContract.served().check(sent.method(), sent.uri().getRawPath(), response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""), response.body());
            return new Reply(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body(),
                    response.headers().firstValue("Retry-After").orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Reply(int status, String contentType, String body, String retryAfter) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public String code() {
            return json().path("code").asText();
        }

        public String orderId() {
            return json().path("orderId").asText();
        }
    }
}
