package io.seckill.ingress.identity;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.javalin.http.Context;
import io.seckill.schemas.events.UserIdFormat;

/**
 * For deployments behind an authenticating gateway that strips and sets {@code X-User-Id}: the header
 * is believed as it is. Only used when configured explicitly (SECKILL_AUTH_MODE=trusted-header).
 */
public final class TrustedHeaderIdentity implements BuyerIdentity {

    public static final String HEADER = "X-User-Id";

    @Override
    public String userId(Context ctx) {
        String raw = ctx.header(HEADER);
        if (raw == null || raw.isBlank()) {
            throw new Problem(ErrorCode.UNAUTHENTICATED, HEADER + " header is required");
        }
        if (!UserIdFormat.isValid(raw)) {
            throw new Problem(ErrorCode.INVALID_USER_ID, HEADER + " must be " + UserIdFormat.DESCRIPTION);
        }
        return raw;
    }
}
