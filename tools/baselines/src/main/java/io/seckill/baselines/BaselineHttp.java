package io.seckill.baselines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Map;

/**
 * The HTTP side every design is measured behind: Javalin configured as the seckill ingress configures it
 * (body cap, no compression, the response copy buffer, no banner), the same buy route and body, the buyer named by the
 * {@code X-User-Id} header as the ingress's trusted-header mode reads it.
 */
final class BaselineHttp {

    static final String BUY_ROUTE = "/api/v1/skus/{skuId}/orders";
    private static final ObjectMapper JSON = new ObjectMapper();

    private BaselineHttp() {
    }

    /** A design's buy handler: it answers through the context. */
    @FunctionalInterface
    interface Buy {
        void handle(Context ctx, long skuId, String userId, int quantity) throws Exception;
    }

    static Javalin start(int port, Buy buy) {
        return Javalin.create(cfg -> {
            cfg.http.maxRequestSize = 16 * 1024;
            cfg.http.prefer405over404 = true;
            cfg.http.compressionStrategy = CompressionStrategy.NONE;
            cfg.http.responseBufferSize = 2 * 1024;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.post(BUY_ROUTE, ctx -> {
                String userId = ctx.header("X-User-Id");
                JsonNode body = readBody(ctx);
                int quantity = body == null ? 0 : body.path("quantity").asInt(0);
                if (userId == null || userId.isBlank() || quantity < 1) {
                    answer(ctx, 400, "VALIDATION_FAILED");
                    return;
                }
                buy.handle(ctx, Long.parseLong(ctx.pathParam("skuId")), userId, quantity);
            });
            cfg.routes.get("/bench/noop", ctx -> ctx.result("ok"));
        }).start(port);
    }

    private static JsonNode readBody(Context ctx) {
        try {
            return JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            return null;
        }
    }

    static void accepted(Context ctx, int status, String orderId) {
        ctx.status(status).contentType("application/json").result("{\"orderId\":\"" + orderId + "\"}");
    }

    static void answer(Context ctx, int status, String code) {
        ctx.status(status)
                .contentType("application/problem+json")
                .result(write(Map.of("status", status, "code", code)));
    }

    private static String write(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
