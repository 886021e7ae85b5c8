package io.seckill.ingress.http;

import io.javalin.http.Context;

/**
 * What a listener tells a browser about an answer: its page runs what {@code contentSecurityPolicy} allows, no page
 * frames it, it is never read as another type than it says, no cache keeps it, and no referrer leaves with its links.
 */
public final class PageHeaders {

    private PageHeaders() {
    }

    public static void apply(Context ctx, String contentSecurityPolicy) {
        ctx.header("Content-Security-Policy", contentSecurityPolicy);
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Cache-Control", "no-store");
        ctx.header("Referrer-Policy", "no-referrer");
    }
}
