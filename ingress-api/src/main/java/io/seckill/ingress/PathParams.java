package io.seckill.ingress;

import io.javalin.http.Context;
import java.util.regex.Pattern;

/** Path and header values, checked before anything is looked up. */
final class PathParams {

    private static final Pattern ORDER_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,64}");
    static final String USER_HEADER = "X-User-Id";

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
        throw Problem.badRequest("INVALID_SKU_ID", "skuId must be a positive 64-bit integer, was '" + raw + "'");
    }

    static String orderId(Context ctx) {
        String raw = ctx.pathParam("orderId");
        if (!ORDER_ID.matcher(raw).matches()) {
            throw Problem.badRequest("INVALID_ORDER_ID", "orderId must be a lower-case UUID, was '" + raw + "'");
        }
        return raw;
    }

    /** The buyer, as asserted by the trusted gateway in front of this service. */
    static String userId(Context ctx) {
        String raw = ctx.header(USER_HEADER);
        if (raw == null || raw.isBlank()) {
            throw new Problem(401, "UNAUTHENTICATED", "Unauthenticated", USER_HEADER + " header is required");
        }
        if (!USER_ID.matcher(raw).matches()) {
            throw Problem.badRequest("INVALID_USER_ID", USER_HEADER + " must be 1-64 characters of A-Z a-z 0-9 . _ : @ -");
        }
        return raw;
    }
}
