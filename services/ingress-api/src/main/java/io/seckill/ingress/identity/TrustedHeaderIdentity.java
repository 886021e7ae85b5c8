package io.seckill.ingress.identity;

import io.javalin.http.Context;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.events.UserIdFormat;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * For deployments behind an authenticating gateway that strips and sets {@code X-User-Id}: the header
 * is believed only from a request that carries the gateway's own credential ({@value #GATEWAY_HEADER},
 * compared in constant time), so whoever reaches the port past the gateway cannot name a buyer. Only
 * used when configured explicitly (SECKILL_AUTH_MODE=trusted-header).
 */
public final class TrustedHeaderIdentity implements BuyerIdentity {

    public static final String HEADER = "X-User-Id";
    public static final String GATEWAY_HEADER = "X-Gateway-Secret";
    public static final int MIN_SECRET_BYTES = 32;

    private final byte[] gatewaySecret;

    public TrustedHeaderIdentity(String gatewaySecret) {
        this.gatewaySecret = gatewaySecret.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String userId(Context ctx) {
        String presented = ctx.header(GATEWAY_HEADER);
        if (presented == null || !MessageDigest.isEqual(gatewaySecret, presented.getBytes(StandardCharsets.UTF_8))) {
            throw new Problem(
                    ErrorCode.UNAUTHENTICATED,
                    "requests are taken only through the gateway, which proves itself with " + GATEWAY_HEADER);
        }
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
