package io.seckill.ingress.identity;

import io.javalin.http.Context;
import io.seckill.buyeraccess.tokens.AccessTokens;
import io.seckill.buyeraccess.tokens.Caller;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Duration;

/**
 * The caller a request's bearer token names, buyer or admin: 401 without a token or with one that is expired or not
 * trusted; 429 unread while the client's address has had too many tokens refused lately ({@link TokenRefusals}). A
 * token verified lately (a buyer's every request after the first) is answered from memory: no client address worked
 * out, no budget taken.
 */
public final class BearerTokens {

    private final AccessTokens tokens;
    private final TokenRefusals refusals;
    private final TrustedProxies proxies;

    public BearerTokens(AccessTokens tokens, TokenRefusals refusals, TrustedProxies proxies) {
        this.tokens = tokens;
        this.refusals = refusals;
        this.proxies = proxies;
    }

    Caller caller(Context ctx) {
        String token = BearerCredential.of(ctx);
        if (token == null) {
            throw new Problem(ErrorCode.UNAUTHENTICATED, "an Authorization: Bearer <token> header is required");
        }
        Caller known = tokens.verifiedLately(token);
        if (known != null) {
            return known;
        }
        String address = TrustedProxies.countedAs(proxies.clientAddress(ctx));
        Duration wait = refusals.wait(address);
        if (!wait.isZero()) {
            throw RateLimiter.limited(wait.toMillis());
        }
        try {
            return tokens.verify(token);
        } catch (AccessTokens.TokenException e) {
            refusals.refused(address);
            throw e.expired()
                    ? new Problem(ErrorCode.TOKEN_EXPIRED, "the token has expired; get a new one")
                    : new Problem(ErrorCode.TOKEN_INVALID, "the token is not valid");
        }
    }
}
