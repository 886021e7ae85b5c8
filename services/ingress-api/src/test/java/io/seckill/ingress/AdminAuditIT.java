package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ADMIN_AUDIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.buyeraccess.tokens.TokenMinter;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * Every admin action leaves a record in MySQL (who, from where, when, what, the answer, the SKU before and after);
 * reads and refused requests do not. The admin API is served on its own listener only.
 */
class AdminAuditIT {

    static final String REFUSALS_AUDITED_PER_MINUTE = "SECKILL_ADMIN_REFUSALS_AUDITED_PER_MINUTE";
    private static final Pattern UNAUDITED =
            Pattern.compile("(?m)^seckill_admin_refusals_unaudited_total(?:\\{[^}]*})? (\\S+)$");

    private final IngressFixture fixture = IngressFixture.get();
    private final String operator = "Bearer "
            + TokenMinter.developmentAdmin(HttpApi.ADMIN_TOKEN_SECRET).admin("ops-carol", Duration.ofMinutes(10));

    @Test
    void definingASaleAndAdjustingItsStockAreRecordedWithTheAdminAndTheSaleBeforeAndAfter() {
        long sku = IngressFixture.newSkuId();
        Instant before = Instant.now().minusSeconds(1);

        assertThat(fixture.http
                        .send(
                                adminRequest("/admin/v1/skus/" + sku, operator)
                                        .PUT(
                                                HttpRequest.BodyPublishers.ofString(
                                                        "{\"name\":\"audited\",\"stock\":7,\"perUserLimit\":1,"
                                                                + "\"startsAt\":\"2020-01-01T00:00:00Z\","
                                                                + "\"endsAt\":\"2099-01-01T00:00:00Z\"}")))
                        .status())
                .isEqualTo(201);
        assertThat(fixture.http
                        .send(adminRequest("/admin/v1/skus/" + sku + "/stock-adjustments", operator)
                                .POST(HttpRequest.BodyPublishers.ofString("{\"adjustmentId\":\"audit-" + sku
                                        + "\",\"delta\":3,\"reason\":\"found a box\"}")))
                        .status())
                .isEqualTo(201);
        assertThat(fixture.http.figures(sku).status()).isEqualTo(200);

        var rows = fixture.sql().selectFrom(ADMIN_AUDIT).where(ADMIN_AUDIT.ACTION.like("% /admin/v1/skus/" + sku + "%"))
                .orderBy(ADMIN_AUDIT.ID).fetch();
        assertThat(rows).hasSize(2);
        Record definition = rows.get(0);
        assertThat(definition.get(ADMIN_AUDIT.ADMIN)).isEqualTo("ops-carol");
        assertThat(definition.get(ADMIN_AUDIT.ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(definition.get(ADMIN_AUDIT.ACTION)).isEqualTo("PUT /admin/v1/skus/" + sku);
        assertThat(definition.get(ADMIN_AUDIT.STATUS)).isEqualTo(201);
        assertThat(definition.get(ADMIN_AUDIT.RECORDED_AT)).isAfter(before);
        assertThat(definition.get(ADMIN_AUDIT.REQUEST)).contains("\"name\":\"audited\"");
        assertThat(definition.get(ADMIN_AUDIT.BEFORE_STATE)).isNull();
        assertThat(definition.get(ADMIN_AUDIT.AFTER_STATE)).contains("\"stock\":7");
        Record adjustment = rows.get(1);
        assertThat(adjustment.get(ADMIN_AUDIT.ACTION)).isEqualTo("POST /admin/v1/skus/" + sku + "/stock-adjustments");
        assertThat(adjustment.get(ADMIN_AUDIT.BEFORE_STATE)).contains("\"stock\":7");
        assertThat(adjustment.get(ADMIN_AUDIT.AFTER_STATE)).contains("\"stock\":10");

        JsonNode newest = fixture.http
                .send(adminRequest("/admin/v1/audit?limit=5", operator).GET())
                .json()
                .path("records");
        assertThat(newest.findValuesAsText("action")).contains("POST /admin/v1/skus/" + sku + "/stock-adjustments");
    }

    /**
     * A refused attempt is recorded, read or write: from where, what it asked, its status, whom a valid token without
     * the role named, never its body; and it changes nothing.
     */
    @Test
    void aRefusedAttemptIsRecordedWithoutItsBodyAndChangesNothing() {
        long sku = IngressFixture.newSkuId();
        String buyer = "Bearer " + HttpApi.tokenFor("mallory");
        String roleless = "Bearer "
                + TokenMinter.developmentAdmin(HttpApi.ADMIN_TOKEN_SECRET).buyer("intern-dan", Duration.ofMinutes(10));
        String definition =
                "{\"name\":\"x\",\"stock\":7,\"perUserLimit\":1,"
                        + "\"startsAt\":\"2020-01-01T00:00:00Z\",\"endsAt\":\"2099-01-01T00:00:00Z\"}";

        assertThat(fixture.http
                        .send(adminRequest("/admin/v1/skus/" + sku, buyer)
                                .PUT(HttpRequest.BodyPublishers.ofString(definition)))
                        .status())
                .isEqualTo(401);
        assertThat(fixture.http
                        .send(adminRequest("/admin/v1/skus/" + sku, roleless)
                                .PUT(HttpRequest.BodyPublishers.ofString(definition)))
                        .status())
                .isEqualTo(403);
        assertThat(fixture.http
                        .send(HttpRequest.newBuilder(fixture.http.adminUri("/admin/v1/skus/" + sku))
                                .GET())
                        .status())
                .isEqualTo(401);

        var rows = fixture.sql()
                .selectFrom(ADMIN_AUDIT)
                .where(ADMIN_AUDIT.ACTION.like("% /admin/v1/skus/" + sku))
                .orderBy(ADMIN_AUDIT.ID)
                .fetch();
        assertThat(rows)
                .extracting(row -> row.get(ADMIN_AUDIT.ACTION) + " " + row.get(ADMIN_AUDIT.STATUS) + " "
                        + row.get(ADMIN_AUDIT.ADMIN))
                .containsExactly(
                        "PUT /admin/v1/skus/" + sku + " 401 -",
                        "PUT /admin/v1/skus/" + sku + " 403 intern-dan",
                        "GET /admin/v1/skus/" + sku + " 401 -");
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.get(ADMIN_AUDIT.ADDRESS)).isEqualTo("127.0.0.1");
            assertThat(row.get(ADMIN_AUDIT.REQUEST)).isNull();
        });
        assertThat(fixture.http.figures(sku).status()).isEqualTo(404);
    }

    /** Whatever path an attempt names, its record fits the table: no refusal goes unrecorded for its length. */
    @Test
    void aRefusedAttemptOnALongPathIsRecordedCut() {
        String path = "/admin/v1/" + "x".repeat(1_000);
        assertThat(fixture.http
                        .send(HttpRequest.newBuilder(fixture.http.adminUri(path))
                                .GET())
                        .status())
                .isEqualTo(401);

        assertThat(fixture.sql().fetchCount(ADMIN_AUDIT, ADMIN_AUDIT.ACTION.eq(("GET " + path).substring(0, 200))))
                .isOne();
    }

    /**
     * Refused attempts sent as fast as a client can make a bounded number of rows: the budget's worth recorded, the
     * rest counted.
     */
    @Test
    void refusedAttemptsPastTheBudgetAreCountedNotRecorded() {
        long sku = IngressFixture.newSkuId();
        try (ManagedIngress ingress = fixture.start(Map.of(REFUSALS_AUDITED_PER_MINUTE, "10"))) {
            double before = ingress.metric(UNAUDITED);
            for (int i = 0; i < 100; i++) {
                assertThat(ingress.http()
                                .send(HttpRequest.newBuilder(ingress.http().adminUri("/admin/v1/skus/" + sku)).GET())
                                .status())
                        .isEqualTo(401);
            }

            int recorded = fixture.sql().fetchCount(ADMIN_AUDIT, ADMIN_AUDIT.ACTION.eq("GET /admin/v1/skus/" + sku));
            assertThat(recorded).as("refused attempts recorded within a minute's budget of 10").isBetween(10, 20);
            assertThat(ingress.metric(UNAUDITED) - before).isEqualTo(100 - recorded);
        }
    }

    private HttpRequest.Builder adminRequest(String path, String authorization) {
        return HttpRequest.newBuilder(fixture.http.adminUri(path))
                .header("Authorization", authorization)
                .header("Content-Type", "application/json");
    }
}
