package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.redisstate.SkuKeys;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * every bad request gets its status and stable code as problem+json, and leaves Redis and MySQL exactly as they were.
 */
class BadRequestIT {

    private static final IngressFixture FIXTURE = IngressFixture.get();
    private static final long OPEN = IngressFixture.newSkuId();
    private static final long NOT_STARTED = IngressFixture.newSkuId();
    private static final long ENDED = IngressFixture.newSkuId();
    private static final String JSON = "application/json";

    @BeforeAll
    static void defineSales() {
        Instant now = Instant.now();
        FIXTURE.http.openSale(OPEN, 10, 2);
        FIXTURE.http.defineSale(NOT_STARTED, 10, 2, now.plusSeconds(3600), now.plusSeconds(7200));
        FIXTURE.http.defineSale(ENDED, 10, 2, now.minusSeconds(7200), now.minusSeconds(3600));
    }

    record Case(String name, Function<HttpApi, HttpRequest.Builder> request, int status, String code) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A token signed by the ingress's own key, longer than it takes. */
    private static String longToken() {
        try {
            Instant now = Instant.now();
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.HS256).build(),
                    new JWTClaimsSet.Builder()
                            .issuer(TokenSettings.DEVELOPMENT_ISSUER)
                            .audience(TokenSettings.DEFAULT_AUDIENCE)
                            .subject("alice")
                            .expirationTime(Date.from(now.plusSeconds(600)))
                            .claim("padding", "x".repeat(TokenSettings.DEFAULT_MAX_BYTES))
                            .build());
            jwt.sign(new MACSigner(HttpApi.TOKEN_SECRET.getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Case> badRequests() {
        String alice = "Bearer " + HttpApi.tokenFor("alice");
        String admin = "Bearer " + HttpApi.ADMIN_TOKEN;
        String buyerKeyAdmin =
                "Bearer " + TokenMinter.development(HttpApi.TOKEN_SECRET).admin("mallory", Duration.ofMinutes(10));
        String roleless = "Bearer "
                + TokenMinter.developmentAdmin(HttpApi.ADMIN_TOKEN_SECRET).buyer("intern", Duration.ofMinutes(10));
        String expired = "Bearer "
                + new TokenMinter(
                                TokenSettings.development(HttpApi.TOKEN_SECRET),
                                Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)))
                        .buyer("alice", Duration.ofMinutes(10));
        String foreign = "Bearer "
                + TokenMinter.development("some-other-secret-of-at-least-32-bytes")
                        .buyer("alice", Duration.ofMinutes(5));
        String[] aliceParts = alice.substring("Bearer ".length()).split("\\.", -1);
        String unsigned = "Bearer "
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.US_ASCII))
                + "." + aliceParts[1] + ".";
        String forged = alice.substring(0, alice.length() - 2) + (alice.endsWith("AA") ? "BB" : "AA");
        String buy = "/api/v1/skus/" + OPEN + "/orders";
        String sale =
                "{\"name\":\"x\",\"stock\":5,\"perUserLimit\":1,"
                        + "\"startsAt\":\"2020-01-01T00:00:00Z\",\"endsAt\":\"2099-01-01T00:00:00Z\"}";
        List<Case> cases = new ArrayList<>(List.of(
                // identity
                new Case(
                        "no credential", api -> post(api, buy, null, JSON, "{\"quantity\":1}"), 401, "UNAUTHENTICATED"),
                new Case(
                        "basic auth",
                        api -> post(api, buy, "Basic YWxpY2U6eA==", JSON, "{\"quantity\":1}"),
                        401,
                        "UNAUTHENTICATED"),
                new Case(
                        "empty bearer",
                        api -> post(api, buy, "Bearer ", JSON, "{\"quantity\":1}"),
                        401,
                        "UNAUTHENTICATED"),
                new Case(
                        "garbage token",
                        api -> post(api, buy, "Bearer not-a-token", JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "forged signature",
                        api -> post(api, buy, forged, JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "token of another secret",
                        api -> post(api, buy, foreign, JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "expired token",
                        api -> post(api, buy, expired, JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_EXPIRED"),
                new Case(
                        "valid token padded past its signature",
                        api -> post(api, buy, alice + "$".repeat(7_000), JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "valid token with base64 padding",
                        api -> post(api, buy, alice + "=", JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "token longer than the bound",
                        api -> post(api, buy, "Bearer " + longToken(), JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "unsigned token (alg none)",
                        api -> post(api, buy, unsigned, JSON, "{\"quantity\":1}"),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "gateway header without gateway mode",
                        api -> post(api, buy, null, JSON, "{\"quantity\":1}").header("X-User-Id", "alice"),
                        401,
                        "UNAUTHENTICATED"),
                new Case(
                        "status without credential",
                        api -> HttpRequest.newBuilder(api.uri("/api/v1/orders/" + UUID.randomUUID()))
                                .GET(),
                        401,
                        "UNAUTHENTICATED"),
                new Case(
                        "admin without credential",
                        api -> put(api, "/admin/v1/skus/" + OPEN, null, sale),
                        401,
                        "UNAUTHENTICATED"),
                new Case(
                        "admin with a buyer token",
                        api -> put(api, "/admin/v1/skus/" + OPEN, alice, sale),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "admin role signed by the buyers' key",
                        api -> put(api, "/admin/v1/skus/" + OPEN, buyerKeyAdmin, sale),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "admin's token without the admin role",
                        api -> put(api, "/admin/v1/skus/" + OPEN, roleless, sale),
                        403,
                        "FORBIDDEN"),
                new Case(
                        "admin with a forged admin token",
                        api -> HttpRequest.newBuilder(api.adminUri("/admin/v1/skus/" + OPEN))
                                .header("Authorization", admin + "x")
                                .GET(),
                        401,
                        "TOKEN_INVALID"),
                new Case(
                        "admin route on the buyers' port",
                        api -> withHeaders(
                                HttpRequest.newBuilder(api.uri("/admin/v1/skus/" + OPEN))
                                        .PUT(BodyPublishers.ofString(sale)),
                                admin,
                                JSON),
                        404,
                        "NOT_FOUND"),
                // bodies
                new Case("empty body", api -> post(api, buy, alice, JSON, ""), 400, "MALFORMED_JSON"),
                new Case("not JSON", api -> post(api, buy, alice, JSON, "quantity=1"), 400, "MALFORMED_JSON"),
                new Case("JSON array", api -> post(api, buy, alice, JSON, "[1]"), 400, "MALFORMED_JSON"),
                new Case("JSON null", api -> post(api, buy, alice, JSON, "null"), 400, "MALFORMED_JSON"),
                new Case(
                        "unknown field",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1,\"coupon\":\"FREE\"}"),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "quantity as a string",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":\"1\"}"),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "fractional quantity",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1.5}"),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "overflowing quantity",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":99999999999}"),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "trailing garbage",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1} {}"),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "zero quantity",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":0}"),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "negative quantity",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":-1}"),
                        400,
                        "VALIDATION_FAILED"),
                new Case("missing quantity", api -> post(api, buy, alice, JSON, "{}"), 400, "VALIDATION_FAILED"),
                new Case(
                        "null quantity",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":null}"),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "quantity above the per-user limit",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":3}"),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "text/plain body",
                        api -> post(api, buy, alice, "text/plain", "{\"quantity\":1}"),
                        415,
                        "UNSUPPORTED_MEDIA_TYPE"),
                new Case(
                        "no content type",
                        api -> post(api, buy, alice, null, "{\"quantity\":1}"),
                        415,
                        "UNSUPPORTED_MEDIA_TYPE"),
                new Case(
                        "oversized body",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1,\"pad\":\"" + "x".repeat(20_000) + "\"}"),
                        413,
                        "PAYLOAD_TOO_LARGE"),
                new Case(
                        "oversized chunked body",
                        api -> chunked(api, buy, alice, "{\"quantity\":1,\"pad\":\"" + "x".repeat(20_000) + "\"}"),
                        413,
                        "PAYLOAD_TOO_LARGE"),
                new Case(
                        "malformed chunked body",
                        api -> chunked(api, buy, alice, "{\"quantity\":"),
                        400,
                        "MALFORMED_JSON"),
                // ids
                new Case(
                        "non-numeric SKU id",
                        api -> post(api, "/api/v1/skus/abc/orders", alice, JSON, "{\"quantity\":1}"),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "zero SKU id",
                        api -> post(api, "/api/v1/skus/0/orders", alice, JSON, "{\"quantity\":1}"),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "negative SKU id",
                        api -> post(api, "/api/v1/skus/-5/orders", alice, JSON, "{\"quantity\":1}"),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "overflowing SKU id",
                        api -> post(api, "/api/v1/skus/99999999999999999999/orders", alice, JSON, "{\"quantity\":1}"),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "unknown SKU",
                        api -> post(api, "/api/v1/skus/987654321987/orders", alice, JSON, "{\"quantity\":1}"),
                        404,
                        "SKU_NOT_FOUND"),
                new Case(
                        "malformed order id",
                        api -> get(api, "/api/v1/orders/not-a-uuid", alice),
                        400,
                        "INVALID_ORDER_ID"),
                new Case(
                        "upper-case order id",
                        api -> get(
                                api,
                                "/api/v1/orders/" + UUID.randomUUID().toString().toUpperCase(Locale.ROOT),
                                alice),
                        400,
                        "INVALID_ORDER_ID"),
                new Case(
                        "unknown order",
                        api -> get(api, "/api/v1/orders/" + UUID.randomUUID(), alice),
                        404,
                        "ORDER_NOT_FOUND"),
                new Case(
                        "admin: non-numeric SKU id",
                        api -> get(api, "/admin/v1/skus/x1", admin),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "admin: unknown SKU",
                        api -> get(api, "/admin/v1/skus/987654321987", admin),
                        404,
                        "SKU_NOT_FOUND"),
                // headers
                new Case(
                        "idempotency key with a space",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1}").header("Idempotency-Key", "a b"),
                        400,
                        "INVALID_IDEMPOTENCY_KEY"),
                new Case(
                        "idempotency key too long",
                        api -> post(api, buy, alice, JSON, "{\"quantity\":1}")
                                .header("Idempotency-Key", "k".repeat(129)),
                        400,
                        "INVALID_IDEMPOTENCY_KEY"),
                // sale rules
                new Case(
                        "sale not started",
                        api -> post(api, "/api/v1/skus/" + NOT_STARTED + "/orders", alice, JSON, "{\"quantity\":1}"),
                        409,
                        "SALE_NOT_STARTED"),
                new Case(
                        "sale ended",
                        api -> post(api, "/api/v1/skus/" + ENDED + "/orders", alice, JSON, "{\"quantity\":1}"),
                        409,
                        "SALE_ENDED"),
                // routes
                new Case("unknown path", api -> get(api, "/api/v1/nothing-here", alice), 404, "NOT_FOUND"),
                new Case(
                        "wrong method",
                        api -> HttpRequest.newBuilder(api.uri(buy))
                                .header("Authorization", alice)
                                .DELETE(),
                        405,
                        "METHOD_NOT_ALLOWED"),
                // admin bodies
                new Case(
                        "admin: negative stock",
                        api -> put(api, "/admin/v1/skus/" + OPEN, admin, sale.replace("\"stock\":5", "\"stock\":-1")),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "admin: window ends before it starts",
                        api -> put(api, "/admin/v1/skus/" + OPEN, admin, sale.replace("2099", "2019")),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "admin: not a date",
                        api -> put(
                                api,
                                "/admin/v1/skus/" + OPEN,
                                admin,
                                sale.replace("2020-01-01T00:00:00Z", "yesterday")),
                        400,
                        "MALFORMED_JSON"),
                new Case(
                        "admin: missing name",
                        api -> put(api, "/admin/v1/skus/" + OPEN, admin, sale.replace("\"name\":\"x\",", "")),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "admin: zero per-user limit",
                        api -> put(
                                api,
                                "/admin/v1/skus/" + OPEN,
                                admin,
                                sale.replace("\"perUserLimit\":1", "\"perUserLimit\":0")),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "admin: a waiting room without passes",
                        api -> put(
                                api,
                                "/admin/v1/skus/" + OPEN,
                                admin,
                                sale.replace("}", ",\"passRequired\":false,\"admissionPerSecond\":10}")),
                        400,
                        "VALIDATION_FAILED"),
                new Case(
                        "admin: a waiting room admitting nobody",
                        api -> put(
                                api, "/admin/v1/skus/" + OPEN, admin, sale.replace("}", ",\"admissionPerSecond\":0}")),
                        400,
                        "VALIDATION_FAILED"),
                // the waiting room
                new Case(
                        "queue: not a SKU id",
                        api -> post(api, "/api/v1/skus/abc/queue", alice, null, ""),
                        400,
                        "INVALID_SKU_ID"),
                new Case(
                        "queue: no ticket shown",
                        api -> get(api, "/api/v1/skus/" + OPEN + "/queue/me", alice),
                        403,
                        "QUEUE_TICKET_INVALID"),
                new Case(
                        "queue: not a ticket",
                        api -> get(api, "/api/v1/skus/" + OPEN + "/queue/me", alice)
                                .header(QueueTickets.HEADER, "q1." + OPEN + ".d0.1.x"),
                        403,
                        "QUEUE_TICKET_INVALID")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void answersWithItsCodeAndChangesNothing(Case bad) {
        Map<String, String> before = snapshot();
        HttpApi.Reply reply = FIXTURE.http.send(bad.request().apply(FIXTURE.http));

        assertThat(reply.status()).as(reply.body()).isEqualTo(bad.status());
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.code()).isEqualTo(bad.code());
        assertThat(reply.json().path("type").asText()).endsWith(bad.code().toLowerCase(Locale.ROOT).replace('_', '-'));
        assertThat(reply.json().path("detail").asText())
                .isNotBlank()
                .as("names no class behind the API")
                .doesNotContain("io.seckill")
                .doesNotContain("java.")
                .doesNotContain("class ")
                .doesNotContain("Exception");
        if (bad.code().equals("SALE_NOT_STARTED")) {
            assertThat(reply.json().path("startsAt").asText()).isNotBlank();
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    /** Everything a bad request could have touched, in both stores. */
    private static Map<String, String> snapshot() {
        Map<String, String> state = new TreeMap<>();
        for (long sku : new long[] {OPEN, NOT_STARTED, ENDED}) {
            SkuKeys keys = new SkuKeys(sku);
            state.put(sku + " redis stock", FIXTURE.redis.get(keys.stock()));
            state.put(sku + " redis sale", FIXTURE.redis.hgetAll(keys.sale()).toString());
            state.put(sku + " redis bought", FIXTURE.redis.hgetAll(keys.bought()).toString());
            state.put(sku + " redis ledger", FIXTURE.redis.hgetAll(keys.ledger()).toString());
            state.put(sku + " redis room", FIXTURE.redis.hgetAll(SkuKeys.room(sku)).toString());
            state.put(sku + " redis queue", FIXTURE.redis.hgetAll(keys.queueCounts()).toString());
            state.put(sku + " mysql sku", String.valueOf(FIXTURE.sql().fetchOne(SKU, SKU.ID.eq(sku))));
            state.put(sku + " mysql orders", Integer.toString(FIXTURE.sql().fetchCount(ORDERS, ORDERS.SKU_ID.eq(sku))));
            state.put(
                    sku + " mysql outbox",
                    Integer.toString(FIXTURE.sql().fetchCount(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(sku)))));
        }
        state.put("redis idempotency keys", Integer.toString(count("seckill:idempotency:*")));
        state.put("mysql skus", Integer.toString(FIXTURE.sql().fetchCount(SKU)));
        return state;
    }

    private static int count(String pattern) {
        int total = 0;
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = FIXTURE.redis.scan(cursor, new ScanParams().match(pattern).count(1000));
            total += page.getResult().size();
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return total;
    }

    private static HttpRequest.Builder post(
            HttpApi api, String path, String authorization, String contentType, String body) {
        return withHeaders(
                HttpRequest.newBuilder(api.uri(path)).POST(BodyPublishers.ofString(body)), authorization, contentType);
    }

    /** A body of undeclared length: sent chunked. */
    private static HttpRequest.Builder chunked(HttpApi api, String path, String authorization, String body) {
        return withHeaders(
                HttpRequest.newBuilder(api.uri(path)).POST(BodyPublishers.fromPublisher(BodyPublishers.ofString(body))),
                authorization,
                JSON);
    }

    private static HttpRequest.Builder put(HttpApi api, String path, String authorization, String body) {
        return withHeaders(
                HttpRequest.newBuilder(target(api, path)).PUT(BodyPublishers.ofString(body)), authorization, JSON);
    }

    private static HttpRequest.Builder get(HttpApi api, String path, String authorization) {
        return withHeaders(HttpRequest.newBuilder(target(api, path)).GET(), authorization, null);
    }

    /** Admin paths on the admin listener, the rest on the buyers'. */
    private static URI target(HttpApi api, String path) {
        return path.startsWith("/admin/") ? api.adminUri(path) : api.uri(path);
    }

    private static HttpRequest.Builder withHeaders(
            HttpRequest.Builder request, String authorization, String contentType) {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return request;
    }
}
