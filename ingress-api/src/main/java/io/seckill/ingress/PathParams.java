package io.seckill.ingress;

import io.javalin.http.Context;
import io.seckill.schemas.events.OrderIdFormat;

/** Path values, checked before anything is looked up. */
final class PathParams {

    private PathParams() {
    }

    static long skuId(Context ctx) {
        String raw = ctx.pathParam("skuId");
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

    static String orderId(Context ctx) {
        String raw = ctx.pathParam("orderId");
        if (!OrderIdFormat.isValid(raw)) {
            throw new Problem(ErrorCode.INVALID_ORDER_ID, "orderId must be a lower-case UUID, was '" + raw + "'");
        }
        return raw;
    }
}
