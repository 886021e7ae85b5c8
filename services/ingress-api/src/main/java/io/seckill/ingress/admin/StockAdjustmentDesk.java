package io.seckill.ingress.admin;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.ingress.skus.SoldOutMemory;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.mysqlstate.StockAdjustments.Adjustment;
import io.seckill.redisstate.SaleStore;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * {@code POST /admin/v1/skus/{skuId}/stock-adjustments}: adds stock to a live sale or removes some, in
 * both stores exactly once per adjustment id (a retry replays the first answer). Added stock goes
 * to MySQL first, then to Redis, where every ingress sells it within its sold-out memory. Removed stock
 * is taken from Redis's free units first, so it never eats into units reserved for orders on their
 * way (sold + reserved stay covered); MySQL follows, and if MySQL refuses, Redis gets its units back.
 * An addition Redis could not take (a sale being restored) is applied by the reconciler later.
 */
public record StockAdjustmentDesk(
        DSLContext dsl,
        StockAdjustments adjustments,
        SaleStore saleStore,
        SoldOutMemory soldOut,
        KnownSkus knownSkus,
        Clock clock)
        implements Feature {

    /** Stock adjusted through the admin's pool. */
    public static StockAdjustmentDesk of(IngressParts parts) {
        return new StockAdjustmentDesk(
                parts.admin(),
                new StockAdjustments(),
                parts.saleStore(),
                parts.soldOut(),
                parts.knownSkus(),
                parts.clock());
    }

    @Override
    public void adminRoutes(JavalinConfig admin) {
        admin.routes.post("/admin/v1/skus/{skuId}/stock-adjustments", this::post);
    }

    public void post(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        StockAdjustmentRequest request = Json.body(ctx, StockAdjustmentRequest.class);
        request.validate();
        Adjustment adjustment = new Adjustment(request.adjustmentId(), skuId, request.delta(), request.reason(), false);
        Optional<Adjustment> earlier = adjustments.find(dsl, adjustment.adjustmentId());
        if (earlier.isPresent()) {
            replay(ctx, adjustment, earlier.get());
            return;
        }
        if (adjustment.delta() > 0) {
            add(ctx, adjustment);
        } else {
            remove(ctx, adjustment);
        }
    }

    private void add(Context ctx, Adjustment adjustment) {
        StockAdjustments.Recorded recorded = adjustments.record(dsl, adjustment, false, clock.instant());
        switch (recorded.recording()) {
            case RECORDED -> respond(ctx, 201, toRedis(recorded.adjustment().orElseThrow()));
            case REPLAYED, ID_REUSED -> replay(ctx, adjustment, recorded.adjustment().orElseThrow());
            case UNKNOWN_SKU -> throw unknownSku(adjustment.skuId());
            case NOT_ENOUGH_STOCK -> throw notEnough(adjustment.skuId(), 0);
        }
    }

    private void remove(Context ctx, Adjustment adjustment) {
        SaleStore.Adjusted taken =
                saleStore.adjustStock(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta());
        switch (taken.adjustment()) {
            case INSUFFICIENT -> throw notEnough(adjustment.skuId(), taken.stock());
            case NOT_LOADED ->
                throw knownSkus.defined(adjustment.skuId())
                        ? new Problem(
                                        ErrorCode.SALE_RESTORING,
                                        "the sale of SKU " + adjustment.skuId()
                                                + " is being restored; try again shortly")
                                .with(Problem.RETRY_AFTER_SECONDS, 1)
                        : unknownSku(adjustment.skuId());
            case APPLIED, ALREADY -> { }
        }
        StockAdjustments.Recorded recorded;
        try {
            recorded = adjustments.record(dsl, adjustment, true, clock.instant());
        } catch (RuntimeException e) {
            saleStore.revertAdjustment(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta());
            throw e;
        }
        switch (recorded.recording()) {
            case RECORDED -> respond(ctx, 201, recorded.adjustment().orElseThrow());
            case REPLAYED -> replay(ctx, adjustment, recorded.adjustment().orElseThrow());
            case ID_REUSED -> {
                saleStore.revertAdjustment(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta());
                replay(ctx, adjustment, recorded.adjustment().orElseThrow());
            }
            case UNKNOWN_SKU -> {
                saleStore.revertAdjustment(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta());
                throw unknownSku(adjustment.skuId());
            }
            case NOT_ENOUGH_STOCK -> {
                saleStore.revertAdjustment(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta());
                throw notEnough(adjustment.skuId(), taken.stock());
            }
        }
    }

    /** The id was used before: the same adjustment is answered as it was, another one is refused. */
    private void replay(Context ctx, Adjustment asked, Adjustment earlier) {
        if (earlier.skuId() != asked.skuId() || earlier.delta() != asked.delta()) {
            throw new Problem(
                    ErrorCode.ADJUSTMENT_ID_REUSED,
                    "adjustment " + asked.adjustmentId() + " was made for a different change");
        }
        respond(ctx, 200, earlier.inRedis() ? earlier : toRedis(earlier));
    }

    /** Applies a recorded addition in Redis; a sale being restored takes it later, from the reconciler. */
    private Adjustment toRedis(Adjustment adjustment) {
        return switch (saleStore
                .adjustStock(adjustment.skuId(), adjustment.adjustmentId(), adjustment.delta())
                .adjustment()) {
            case APPLIED, ALREADY -> {
                adjustments.markInRedis(dsl, adjustment.adjustmentId());
                soldOut.forget(adjustment.skuId());
                yield new Adjustment(
                        adjustment.adjustmentId(), adjustment.skuId(), adjustment.delta(), adjustment.reason(), true);
            }
            case NOT_LOADED, INSUFFICIENT -> adjustment;
        };
    }

    private static void respond(Context ctx, int status, Adjustment adjustment) {
        Json.respond(ctx, status, new AdjustmentReply(adjustment.adjustmentId(), adjustment.skuId(), adjustment.delta(),
                adjustment.reason(), adjustment.inRedis() ? Applied.APPLIED : Applied.APPLIED_IN_MYSQL));
    }

    /**
     * Where an adjustment stands: in both stores, or recorded in MySQL and given to Redis when its sale is restored.
     */
    enum Applied {
        APPLIED, APPLIED_IN_MYSQL }

    /** The answer to an adjustment, made now or replayed. */
    record AdjustmentReply(String adjustmentId, long skuId, int delta, String reason, Applied status) {
    }

    private static Problem unknownSku(long skuId) {
        return new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId);
    }

    private static Problem notEnough(long skuId, long available) {
        return new Problem(ErrorCode.INSUFFICIENT_STOCK, "SKU " + skuId + " has only " + available
                + " free unit(s); reserved and sold units cannot be removed").with("available", available);
    }
}
