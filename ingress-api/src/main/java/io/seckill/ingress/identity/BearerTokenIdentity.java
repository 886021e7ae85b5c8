package io.seckill.ingress.identity;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.javalin.http.Context;

/** The default: {@code Authorization: Bearer <JWT>} verified by {@link AccessTokens}; the buyer is its subject. */
public final class BearerTokenIdentity implements BuyerIdentity {

    private final AccessTokens tokens;

    public BearerTokenIdentity(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public String userId(Context ctx) {
        return caller(tokens, ctx).subject();
    }

    /** The caller a request's bearer token names: 401 without one, or with one that is expired or not trusted. */
    static Caller caller(AccessTokens tokens, Context ctx) {
        String token = BearerCredential.of(ctx);
        if (token == null) {
            throw new Problem(ErrorCode.UNAUTHENTICATED, "an Authorization: Bearer <token> header is required");
        }
        try {
            return tokens.verify(token);
        } catch (AccessTokens.TokenException e) {
            throw e.expired()
                    ? new Problem(ErrorCode.TOKEN_EXPIRED, "the token has expired; get a new one")
                    : new Problem(ErrorCode.TOKEN_INVALID, "the token is not valid");
        }
    }
}
