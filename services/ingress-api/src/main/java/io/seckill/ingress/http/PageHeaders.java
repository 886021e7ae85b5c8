package io.seckill.ingress.http;

import io.javalin.http.Context;
import java.util.Map;

/**
 * What a listener tells a browser about an answer: its page runs what {@code contentSecurityPolicy} allows, no page
 * frames it, it is never read as another type than it says, no cache keeps it, and no referrer leaves with its links.
 */
public final class PageHeaders {

    private PageHeaders() {
    }

    public static void apply(Context ctx, String contentSecurityPolicy) {
        of(contentSecurityPolicy).forEach(ctx::header);
    }

    /** The same headers, for a listener's static files. */
    public static Map<String, String> of(String contentSecurityPolicy) {
        return Map.of(
                "Content-Security-Policy", contentSecurityPolicy,
                "X-Frame-Options", "DENY",
                "X-Content-Type-Options", "nosniff",
                "Cache-Control", "no-store",
                "Referrer-Policy", "no-referrer");
    }
}
