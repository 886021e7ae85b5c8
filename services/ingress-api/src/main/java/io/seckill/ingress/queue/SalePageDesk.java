package io.seckill.ingress.queue;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.staticfiles.Location;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.http.ClasspathResources;
import io.seckill.ingress.http.PageHeaders;
import io.seckill.ingress.http.PathParams;

/**
 * The buyer's page of a sale, {@code /sale/{skuId}}: plain HTML and JavaScript over the buyers' API (sign in with a
 * token, join the waiting room, see where one stands, solve the pass's proof of work, buy, follow the order), nothing
 * to build. It holds no data: every figure it shows it asks the API for with the buyer's token.
 */
public final class SalePageDesk implements Feature {

    public static final String PATH = "/sale/{skuId}";
    private static final String FILES = "/sale-page";
    /**
     * Its own scripts, styles and fetches only, so nothing injected runs with the buyer's token; no page may frame it.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'";

    private final byte[] page = ClasspathResources.read("/pages/sale/index.html");

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.get(PATH, this::page);
        buyers.staticFiles.add(files -> {
            files.hostedPath = FILES;
            files.directory = "/pages/sale";
            files.location = Location.CLASSPATH;
            // Its files, the page's own copy among them, tell the browser what the page does.
            files.headers = PageHeaders.of(CONTENT_SECURITY_POLICY);
        });
    }

    /** {@code GET /sale/{skuId}}: the page, whichever sale it names (the page asks the API about it). */
    void page(Context ctx) {
        // A malformed id is refused here as on every route of a SKU.
        PathParams.skuId(ctx);
        PageHeaders.apply(ctx, CONTENT_SECURITY_POLICY);
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
