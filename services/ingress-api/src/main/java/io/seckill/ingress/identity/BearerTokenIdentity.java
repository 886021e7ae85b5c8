package io.seckill.ingress.identity;

import io.javalin.http.Context;
import io.seckill.buyeraccess.tokens.AccessTokens;

/** The default: {@code Authorization: Bearer <JWT>} verified by {@link AccessTokens}; the buyer is its subject. */
public final class BearerTokenIdentity implements BuyerIdentity {

    private final BearerTokens tokens;

    public BearerTokenIdentity(BearerTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public String userId(Context ctx) {
        return tokens.caller(ctx).subject();
    }
}
