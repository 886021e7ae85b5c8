package io.seckill.ingress.identity;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.javalin.http.Context;

/** The default: {@code Authorization: Bearer <token>} verified with {@link BuyerToken}. */
public final class BearerTokenIdentity implements BuyerIdentity {

    private final BuyerToken tokens;

    public BearerTokenIdentity(BuyerToken tokens) {
        this.tokens = tokens;
    }

    @Override
    public String userId(Context ctx) {
        String token = BearerCredential.of(ctx);
        if (token == null) {
            throw new Problem(ErrorCode.UNAUTHENTICATED, "an Authorization: Bearer <token> header is required");
        }
        try {
            return tokens.verify(token);
        } catch (BuyerToken.TokenException e) {
            throw e.expired()
                    ? new Problem(ErrorCode.TOKEN_EXPIRED, "the token has expired; get a new one")
                    : new Problem(ErrorCode.TOKEN_INVALID, "the token is not valid");
        }
    }
}
