package io.seckill.ingress;

/**
 * A failure the client is told about as RFC 9457 problem+json, with a stable machine-readable code.
 * Codes: MALFORMED_JSON, VALIDATION_FAILED, INVALID_SKU_ID, INVALID_ORDER_ID, INVALID_USER_ID, UNAUTHENTICATED, SKU_NOT_FOUND, ORDER_NOT_FOUND, SOLD_OUT,
 * PURCHASE_LIMIT_REACHED, SALE_NOT_OPEN, SALE_HAS_ORDERS, SALE_IN_PROGRESS, SERVICE_UNAVAILABLE, INTERNAL_ERROR.
 */
public final class Problem extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;

    public Problem(int status, String code, String title, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
        this.title = title;
    }

    public static Problem badRequest(String code, String detail) {
        return new Problem(400, code, "Bad request", detail);
    }

    public static Problem validation(String detail) {
        return badRequest("VALIDATION_FAILED", detail);
    }

    public static Problem notFound(String code, String detail) {
        return new Problem(404, code, "Not found", detail);
    }

    public static Problem conflict(String code, String title, String detail) {
        return new Problem(409, code, title, detail);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String title() {
        return title;
    }
}
