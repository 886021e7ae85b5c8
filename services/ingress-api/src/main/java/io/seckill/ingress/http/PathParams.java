package io.seckill.ingress.http;

import io.javalin.http.Context;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.events.OrderIdFormat;

/** Path and query values, checked before anything is looked up. */
public final class PathParams {

    private PathParams() {
    }

    public static long skuId(Context ctx) {
        return positiveSkuId(ctx.pathParam("skuId"));
    }

    /** The required {@code skuId} query parameter. */
    public static long skuIdQuery(Context ctx) {
        String raw = ctx.queryParam("skuId");
        if (raw == null) {
            throw new Problem(ErrorCode.INVALID_SKU_ID, "the query parameter skuId is required");
        }
        return positiveSkuId(raw);
    }

    private static long positiveSkuId(String raw) {
        try {
            long skuId = Long.parseLong(raw);
            if (skuId > 0) {
                return skuId;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new Problem(ErrorCode.INVALID_SKU_ID, "skuId must be a positive 64-bit integer, was '" + raw + "'");
    }

    public static String orderId(Context ctx) {
        String raw = ctx.pathParam("orderId");
        if (!OrderIdFormat.isValid(raw)) {
            throw new Problem(ErrorCode.INVALID_ORDER_ID, "orderId must be a lower-case UUID, was '" + raw + "'");
        }
        return raw;
    }
}
