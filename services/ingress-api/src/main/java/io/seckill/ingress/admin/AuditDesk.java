package io.seckill.ingress.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.LogText;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.identity.AdminGuard;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.mysqlstate.AdminAuditLog;
import io.seckill.mysqlstate.Skus;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an audit record of every admin action (a request that changes something, by an admin the guard let
 * in), to MySQL and the log: who, from where, when, what was asked, the answer's status, and the SKU's
 * definition before and after. Reads are not actions. Every attempt the guard refused after reading its token (401,
 * 403) is recorded too, read or write: from where, what was asked, the status, and whom the token named if it was a
 * valid one without the admin role ({@value #UNKNOWN} otherwise), never its body, up to a budget a minute on this
 * ingress ({@code SECKILL_ADMIN_REFUSALS_AUDITED_PER_MINUTE}); beyond it they are counted
 * ({@code seckill.admin.refusals.unaudited}), so a flood of refused attempts writes a bounded number of rows and lines.
 * Attempts refused unread (429, an address past its refused tokens) are counted by that limit, not recorded one by
 * one. The log line is written even when MySQL cannot take the row, so no action goes unrecorded; every field in it is
 * escaped, as any of them can be what a client wrote.
 */
public final class AuditDesk implements Feature {

    /**
     * The audit, kept through the admin's pool.
     * @param refusalsPerMinute refused attempts recorded one by one each minute
     */
    public static AuditDesk of(IngressParts parts, int refusalsPerMinute) {
        return new AuditDesk(
                parts.admin(),
                new AdminAuditLog(),
                parts.skus(),
                parts.trustedProxies(),
                new RefusalBudget(refusalsPerMinute, Duration.ofMinutes(1), System::nanoTime),
                parts.metrics(),
                parts.clock());
    }

    @Override
    public void adminRoutes(JavalinConfig admin) {
        admin.routes.before("/admin/*", this::before);
        admin.routes.get("/admin/v1/audit", this::newest);
        admin.routes.after("/admin/*", this::after);
    }


    private static final Logger LOG = LoggerFactory.getLogger(AuditDesk.class);
    private static final Pattern SKU_PATH = Pattern.compile("^/admin/v1/skus/(\\d{1,18})(/.*)?$");
    private static final String BEFORE = "seckill.audit.before";
    private static final Pattern LIMIT = Pattern.compile("[0-9]{1,4}");
    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 1000;
    /** The admin of a refused attempt whose token named nobody we believe. */
    static final String UNKNOWN = "-";
    private static final Set<Integer> REFUSALS = Set.of(401, 403);
    /** The width of {@code admin_audit.action}: a refused attempt's path is whatever the client sent. */
    private static final int ACTION_CHARACTERS = 200;

    private static final Set<HandlerType> ACTIONS =
            Set.of(HandlerType.PUT, HandlerType.POST, HandlerType.PATCH, HandlerType.DELETE);
    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private final DSLContext dsl;
    private final AdminAuditLog log;
    private final Skus skus;
    private final TrustedProxies trustedProxies;
    private final RefusalBudget refusals;
    private final IngressMetrics metrics;
    private final Clock clock;

    AuditDesk(
            DSLContext dsl,
            AdminAuditLog log,
            Skus skus,
            TrustedProxies trustedProxies,
            RefusalBudget refusals,
            IngressMetrics metrics,
            Clock clock) {
        this.dsl = dsl;
        this.log = log;
        this.skus = skus;
        this.trustedProxies = trustedProxies;
        this.refusals = refusals;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Before the action runs (after the guard): the target's state as it was. */
    public void before(Context ctx) {
        if (isAction(ctx)) {
            ctx.attribute(BEFORE, Optional.ofNullable(state(ctx)));
        }
    }

    /** After the action was answered, whatever the answer. */
    public void after(Context ctx) {
        Optional<String> before = ctx.attribute(BEFORE);
        if (before != null) {
            String body = ctx.body();
            record(new AdminAuditLog.Entry(
                    clock.instant(),
                    AdminGuard.admin(ctx),
                    trustedProxies.clientAddress(ctx),
                    actionOf(ctx),
                    ctx.statusCode(),
                    body.isEmpty() ? null : body,
                    before.orElse(null),
                    state(ctx)));
        } else if (REFUSALS.contains(ctx.statusCode()) && !refusals.take()) {
            metrics.adminRefusalUnaudited();
        } else if (REFUSALS.contains(ctx.statusCode())) {
            record(new AdminAuditLog.Entry(
                    clock.instant(),
                    AdminGuard.refusedCaller(ctx).orElse(UNKNOWN),
                    trustedProxies.clientAddress(ctx),
                    actionOf(ctx),
                    ctx.statusCode(),
                    null,
                    null,
                    null));
        }
    }

    private void record(AdminAuditLog.Entry entry) {
        LOG.info(
                "admin audit: {} by {} from {}: {} (before {}, after {})",
                LogText.escape(entry.action()),
                LogText.escape(entry.admin()),
                LogText.escape(entry.address()),
                entry.status(),
                LogText.escape(entry.beforeState()),
                LogText.escape(entry.afterState()));
        try {
            log.record(dsl, entry);
        } catch (RuntimeException e) {
            LOG.error(
                    "admin audit: the record of {} by {} could not be written to MySQL; this log line is its record",
                    LogText.escape(entry.action()),
                    LogText.escape(entry.admin()),
                    e);
        }
    }

    private static String actionOf(Context ctx) {
        String action = ctx.method().name() + " " + ctx.path();
        return action.length() <= ACTION_CHARACTERS ? action : action.substring(0, ACTION_CHARACTERS);
    }

    /** {@code GET /admin/v1/audit?limit=}: the newest records, newest first. */
    public void newest(Context ctx) {
        String asked = ctx.queryParam("limit");
        int limit = asked == null ? DEFAULT_LIMIT : parseLimit(asked);
        Json.respond(ctx, 200, new Records(log.newest(dsl, limit)));
    }

    /** The answer to {@code GET /admin/v1/audit}. */
    record Records(List<AdminAuditLog.Entry> records) {
    }

    /** A sale as a record keeps it, before and after the change. */
    record SaleState(String name, int stock, int perUserLimit, Instant startsAt, Instant endsAt, long version) {
    }

    private static int parseLimit(String asked) {
        if (!LIMIT.matcher(asked).matches() || Integer.parseInt(asked) < 1 || Integer.parseInt(asked) > MAX_LIMIT) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "limit must be a whole number from 1 to " + MAX_LIMIT);
        }
        return Integer.parseInt(asked);
    }

    private static boolean isAction(Context ctx) {
        return ACTIONS.contains(ctx.method());
    }

    /** The SKU's definition as MySQL holds it (JSON), or null for an action on no SKU or a SKU not defined. */
    private String state(Context ctx) {
        Matcher sku = SKU_PATH.matcher(ctx.path());
        if (!sku.matches()) {
            return null;
        }
        return skus.current(dsl, Long.parseLong(sku.group(1))).map(AuditDesk::json).orElse(null);
    }

    private static String json(Skus.VersionedSale current) {
        Skus.Sale sale = current.sale();
        try {
            return JSON.writeValueAsString(new SaleState(
                    sale.name(), sale.stock(), sale.perUserLimit(), sale.startsAt(), sale.endsAt(), current.version()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a sale's fields are plain values", e);
        }
    }
}
