package io.seckill.ingress.identity;

import io.javalin.http.Context;
import io.seckill.buyeraccess.tokens.Caller;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.Optional;

/**
 * Admin endpoints need an admin's token (signed by the admins' key, never the buyers') carrying the admin role: without
 * a valid one 401, with one without the role 403. The admin's name is kept on the request for the audit record.
 */
public final class AdminGuard {

    private static final String ADMIN = "seckill.admin";
    private static final String REFUSED = "seckill.admin.refused";
    private final BearerTokens tokens;

    public AdminGuard(BearerTokens tokens) {
        this.tokens = tokens;
    }

    public void check(Context ctx) {
        Caller caller = tokens.caller(ctx);
        if (!caller.admin()) {
            ctx.attribute(REFUSED, caller.subject());
            throw new Problem(ErrorCode.FORBIDDEN, "admin endpoints need a token with the admin role");
        }
        ctx.attribute(ADMIN, caller.subject());
    }

    /** Whom a request's token named when it was refused for want of the admin role; empty for any other request. */
    public static Optional<String> refusedCaller(Context ctx) {
        return Optional.ofNullable(ctx.attribute(REFUSED));
    }

    /** The admin a checked request came from. */
    public static String admin(Context ctx) {
        String admin = ctx.attribute(ADMIN);
        if (admin == null) {
            throw new IllegalStateException("the admin guard did not check " + ctx.path());
        }
        return admin;
    }
}
