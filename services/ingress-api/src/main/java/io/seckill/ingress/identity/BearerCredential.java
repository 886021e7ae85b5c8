package io.seckill.ingress.identity;

import io.javalin.http.Context;

/** The credential of an {@code Authorization: Bearer ...} header, or null. */
public final class BearerCredential {

    private static final String PREFIX = "bearer ";

    private BearerCredential() {
    }

    static String of(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null
                || header.length() <= PREFIX.length()
                || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return null;
        }
        String credential = header.substring(PREFIX.length()).trim();
        return credential.isEmpty() ? null : credential;
    }
}
