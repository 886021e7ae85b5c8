package io.seckill.ingress.http;

import io.javalin.http.Context;
import java.util.Map;

/**
 * What the admin listener tells a browser about every answer: its pages run only this listener's own scripts and ask
 * only it (no other origin can be injected into them), no page may frame them (no click-jacking an operator into a
 * rebuild), a response is never read as another type than it says, and nothing it answers (sales, audit, tokens typed
 * into the page) is kept by a cache; the versioned libraries under {@code /webjars} alone keep their long caching,
 * being public and unchanging.
 */
public final class AdminResponseHeaders {

    /**
     * Scripts, fetches and frames of this origin only; images also inline ({@code data:}, the API reference's icons);
     * styles also inline, which the API reference's renderer sets.
     */
    static final String CONTENT_SECURITY_POLICY =
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; "
                    + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String NO_STORE = "no-store";
    /** The pages' own files: the static file handler sets these over what {@link #apply} set. */
    public static final Map<String, String> PAGES = Map.of("Cache-Control", NO_STORE);

    private AdminResponseHeaders() {
    }

    public static void apply(Context ctx) {
        PageHeaders.apply(ctx, CONTENT_SECURITY_POLICY);
    }
}
