package io.seckill.runtime.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A service's operator port, apart from any port buyers reach: {@code /health} (the process answers),
 * {@code /ready} (every readiness check passes; 503 and the failing checks otherwise; with the
 * process's {@link DeploymentMode}, so a development process is seen for what it is) and
 * {@code /metrics} (Prometheus text).
 */
public final class ManagementServer implements AutoCloseable {

    public static final String PORT_VARIABLE = "SECKILL_MANAGEMENT_PORT";
    public static final String HOST_VARIABLE = "SECKILL_MANAGEMENT_HOST";
    /**
     * Only this host reaches it unless told otherwise: its metrics and readiness are for operators, not for the
     * network.
     */
    private static final String DEFAULT_HOST = "127.0.0.1";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Javalin app;

    private ManagementServer(Javalin app) {
        this.app = app;
    }

    /**
     * On {@code SECKILL_MANAGEMENT_HOST} (default 127.0.0.1) and {@code SECKILL_MANAGEMENT_PORT} ({@code defaultPort}).
     */
    public static ManagementServer start(
            Env env, int defaultPort, PrometheusMeterRegistry registry, Readiness readiness) {
        String mode = DeploymentMode.of(env).label();
        Javalin app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/health", ctx -> json(ctx, 200, Map.of("status", "UP")));
            cfg.routes.get("/ready", ctx -> ready(ctx, mode, readiness.evaluate()));
            cfg.routes.get(
                    "/metrics",
                    ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                            .result(registry.scrape()));
        });
        app.start(env.string(HOST_VARIABLE, DEFAULT_HOST), env.integer(PORT_VARIABLE, defaultPort));
        return new ManagementServer(app);
    }

    private static void ready(Context ctx, String mode, Readiness.Report report) throws JsonProcessingException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", report.ready() ? "READY" : "NOT_READY");
        body.put("mode", mode);
        body.put("checks", report.checks());
        json(ctx, report.ready() ? 200 : 503, body);
    }

    private static void json(Context ctx, int status, Object body) throws JsonProcessingException {
        ctx.status(status).contentType("application/json").result(JSON.writeValueAsString(body));
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
