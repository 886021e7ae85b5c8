package io.seckill.ingress.identity;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.javalin.http.Context;

/**
 * Admin endpoints need an admin's token (signed by the admins' key, never the buyers') carrying the admin role: without
 * a valid one 401, with one without the role 403. The admin's name is kept on the request for the audit record.
 */
public final class AdminGuard {

    private static final String ADMIN = "seckill.admin";
    private final BearerTokens tokens;

    public AdminGuard(BearerTokens tokens) {
        this.tokens = tokens;
    }

    public void check(Context ctx) {
        Caller caller = tokens.caller(ctx);
        if (!caller.admin()) {
            throw new Problem(ErrorCode.FORBIDDEN, "admin endpoints need a token with the admin role");
        }
        ctx.attribute(ADMIN, caller.subject());
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
