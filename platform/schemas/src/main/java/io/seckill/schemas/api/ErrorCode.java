package io.seckill.schemas.api;

import java.util.Locale;

/**
 * Every {@code code} a problem+json answer can carry, with its HTTP status. Clients switch on these;
 * they never change meaning. {@code /openapi.json} lists them all (a test holds the two together).
 */
public enum ErrorCode {
    MALFORMED_HTTP(400, "Malformed HTTP request"),
    MALFORMED_JSON(400, "Malformed JSON"),
    VALIDATION_FAILED(400, "Validation failed"),
    INVALID_SKU_ID(400, "Invalid SKU id"),
    INVALID_ORDER_ID(400, "Invalid order id"),
    INVALID_USER_ID(400, "Invalid user id"),
    INVALID_IDEMPOTENCY_KEY(400, "Invalid idempotency key"),
    UNAUTHENTICATED(401, "Unauthenticated"),
    TOKEN_EXPIRED(401, "Token expired"),
    TOKEN_INVALID(401, "Token invalid"),
    FORBIDDEN(403, "Forbidden"),
    PASS_REQUIRED(403, "Sale pass required"),
    PASS_INVALID(403, "Sale pass invalid"),
    CHALLENGE_FAILED(403, "Challenge failed"),
    QUEUE_TICKET_INVALID(403, "Queue ticket invalid"),
    QUEUE_TICKET_STALE(403, "Queue ticket of an earlier line"),
    NOT_FOUND(404, "Not found"),
    SKU_NOT_FOUND(404, "SKU not found"),
    ORDER_NOT_FOUND(404, "Order not found"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    SOLD_OUT(409, "Sold out"),
    INSUFFICIENT_STOCK(409, "Insufficient stock"),
    PURCHASE_LIMIT_REACHED(409, "Purchase limit reached"),
    SALE_NOT_STARTED(409, "Sale not started"),
    SALE_ENDED(409, "Sale ended"),
    SALE_HAS_ORDERS(409, "Sale has orders"),
    SALE_IN_PROGRESS(409, "Sale in progress"),
    PASS_WINDOW_NOT_OPEN(409, "Passes not given out yet"),
    QUEUE_NOT_OPEN(409, "Queue not open yet"),
    NO_WAITING_ROOM(409, "Sale has no waiting room"),
    NOT_YET_ADMITTED(409, "Not yet admitted"),
    CHALLENGE_REPLAYED(409, "Challenge answered already"),
    IDEMPOTENCY_IN_PROGRESS(409, "Idempotent request in progress"),
    ORDER_NOT_CONFIRMED(409, "Order not confirmed"),
    ORDER_ALREADY_PAID(409, "Order already paid"),
    ORDER_CANCELLED(409, "Order cancelled"),
    ORDER_EXPIRED(409, "Order expired"),
    PAYMENT_DECLINED(402, "Payment declined"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    URI_TOO_LONG(414, "URI too long"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    IDEMPOTENCY_KEY_REUSED(422, "Idempotency key reused"),
    ADJUSTMENT_ID_REUSED(422, "Adjustment id reused"),
    HEADERS_TOO_LARGE(431, "Request headers too large"),
    RATE_LIMITED(429, "Too many requests"),
    INTERNAL_ERROR(500, "Internal error"),
    SERVICE_UNAVAILABLE(503, "Service unavailable"),
    SALE_RESTORING(503, "Sale being restored"),
    REDIS_UNAVAILABLE(503, "Redis unavailable"),
    DATABASE_UNAVAILABLE(503, "Database unavailable");

    private final int status;
    private final String title;

    ErrorCode(int status, String title) {
        this.status = status;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The code for a refusal made by the HTTP layer (Jetty or Javalin) before our handlers ran. */
    public static ErrorCode forHttpStatus(int status) {
        return switch (status) {
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 414 -> URI_TOO_LONG;
            case 431 -> HEADERS_TOO_LARGE;
            default -> status >= 500 ? INTERNAL_ERROR : MALFORMED_HTTP;
        };
    }

    /** The problem type URI: stable, one per code. */
    public String type() {
        return "https://seckill.io/problems/" + name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
