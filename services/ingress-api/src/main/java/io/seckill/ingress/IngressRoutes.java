package io.seckill.ingress;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.staticfiles.Location;
import io.javalin.router.Endpoint;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.http.AdminResponseHeaders;
import io.seckill.ingress.http.BuyersApiDocument;
import io.seckill.ingress.http.ClasspathResources;
import io.seckill.ingress.http.DependencyOutage;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.LogText;
import io.seckill.ingress.http.ProblemErrorHandler;
import io.seckill.ingress.http.Reply;
import io.seckill.ingress.identity.AdminGuard;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.warmup.BuyPathWarmUp;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingress's HTTP servers, the buyers' and the admin's: each feature's routes, the guard in front of the admin's,
 * the API documents, and how failures are answered.
 */
final class IngressRoutes implements BuyPathWarmUp.Served {

    /** Bodies here are a few dozen bytes; anything far larger is not a buyer. */
    static final long MAX_BODY_BYTES = 16 * 1024;
    /** Every answer but the OpenAPI document fits in one pass; a larger one takes several. */
    static final int RESPONSE_COPY_BUFFER_BYTES = 2 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(IngressRoutes.class);
    /** Swagger UI over /openapi.json, on the admin listener. */
    static final String API_REFERENCE = "/api-docs";

    /**
     * How the servers run requests: on virtual threads (Jetty's virtual-thread executor; since JEP 491 a
     * {@code synchronized} block no longer pins one to its carrier), or on Jetty's pool of platform threads.
     */
    enum Threads { VIRTUAL, PLATFORM }

    /**
     * Where each side listens: buyers on {@code buyersHost} (null: every interface), the admin API on its own (by
     * default this host's only).
     */
    record Listeners(String buyersHost, int buyersPort, String adminHost, int adminPort) {

        /** Both sides on this host only, each on a free port. */
        static Listeners loopback() {
            return new Listeners("127.0.0.1", 0, "127.0.0.1", 0);
        }
    }

    private final List<String> routes = new ArrayList<>();
    private final IngressMetrics metrics;
    private final Javalin buyers;
    private final Javalin admin;

    private IngressRoutes(
            List<Feature> features, AdminGuard guard, IngressMetrics metrics, boolean benchmarkMode, Threads threads) {
        this.metrics = metrics;
        byte[] openApi = ClasspathResources.read("/openapi.json");
        byte[] buyersOpenApi = BuyersApiDocument.of(openApi);
        this.buyers = server(threads, cfg -> {
            features.forEach(feature -> feature.buyersRoutes(cfg));
            cfg.routes.get("/health", ctx -> Json.respond(ctx, 200, Map.of("status", "UP")));
            cfg.routes.get("/openapi.json", ctx -> ctx.contentType(Reply.APPLICATION_JSON).result(buyersOpenApi));
            if (benchmarkMode) {
                // The ceiling a benchmark compares against: the same server doing nothing.
                cfg.routes.get("/bench/noop", ctx -> ctx.result("ok"));
            }
        });
        this.admin = server(threads, cfg -> {
            cfg.routes.before(AdminResponseHeaders::apply);
            // Before any feature's own: nothing of the admin's runs for a caller the guard refuses.
            cfg.routes.before("/admin/*", guard::check);
            features.forEach(feature -> feature.adminRoutes(cfg));
            // The API reference renders /openapi.json; both are on the admin listener only.
            cfg.staticFiles.enableWebjars();
            cfg.staticFiles.add(page -> {
                page.hostedPath = API_REFERENCE;
                page.directory = "/pages/api-docs";
                page.location = Location.CLASSPATH;
                page.headers = AdminResponseHeaders.PAGES;
            });
            cfg.routes.get("/openapi.json", ctx -> ctx.contentType(Reply.APPLICATION_JSON).result(openApi));
        });
    }

    /** A server with the ingress's limits and failure answers, serving {@code routes}. */
    private Javalin server(Threads threads, Consumer<JavalinConfig> routesOfServer) {
        return Javalin.create(cfg -> {
            cfg.http.maxRequestSize = MAX_BODY_BYTES;
            cfg.http.prefer405over404 = true;
            // Every answer here is a few hundred bytes: compressing costs more than it saves.
            cfg.http.compressionStrategy = CompressionStrategy.NONE;
            // Javalin copies each response through a buffer of this size, allocated per response; its
            // default, Jetty's output buffer, made that copy most of the ingress's allocation.
            cfg.http.responseBufferSize = RESPONSE_COPY_BUFFER_BYTES;
            cfg.startup.showJavalinBanner = false;
            cfg.concurrency.useVirtualThreads = switch (threads) {
                case VIRTUAL -> true;
                case PLATFORM -> false;
            };
            cfg.events.handlerAdded(handler -> {
                if (handler.getHttpMethod().isHttpMethod()) {
                    routes.add(handler.getHttpMethod().name() + " " + handler.getPath());
                }
            });
            cfg.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            routesOfServer.accept(cfg);
            cfg.routes.after(this::countRequest);
            cfg.routes.exception(Problem.class, (problem, ctx) -> Json.problem(ctx, problem));
            cfg.routes.exception(
                    HttpResponseException.class,
                    (failure, ctx) -> Json.problem(
                            ctx, new Problem(ErrorCode.forHttpStatus(failure.getStatus()), failure.getMessage())));
            cfg.routes.exception(Exception.class, (failure, ctx) -> {
                Optional<Problem> outage = DependencyOutage.of(failure);
                if (outage.isPresent()) {
                    LOG.warn(
                            "{} {}: {} ({})",
                            ctx.method(),
                            LogText.escape(ctx.path()),
                            outage.get().code(),
                            failure.toString());
                    Json.problem(ctx, outage.get());
                    return;
                }
                LOG.error("{} {} failed", ctx.method(), LogText.escape(ctx.path()), failure);
                Json.problem(
                        ctx,
                        new Problem(
                                ErrorCode.INTERNAL_ERROR,
                                "the request failed; nothing was reserved unless a 202 was returned"));
            });
        });
    }

    /** Serves the buyers' and the admin routes where {@code listeners} say (port 0: a free one). */
    static IngressRoutes start(
            List<Feature> features,
            AdminGuard guard,
            IngressMetrics metrics,
            boolean benchmarkMode,
            Threads threads,
            Listeners listeners) {
        IngressRoutes server = new IngressRoutes(features, guard, metrics, benchmarkMode, threads);
        try {
            if (listeners.buyersHost() == null) {
                server.buyers.start(listeners.buyersPort());
            } else {
                server.buyers.start(listeners.buyersHost(), listeners.buyersPort());
            }
            server.admin.start(listeners.adminHost(), listeners.adminPort());
        } catch (RuntimeException e) {
            // A port taken already: the servers' threads started before the bind failed.
            server.close();
            throw e;
        }
        return server;
    }

    private void countRequest(Context ctx) {
        Object outcome = ctx.attribute(Reply.OUTCOME);
        Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
        String route = matched == null ? "unmatched" : matched.path;
        metrics.request(route, outcome != null ? outcome.toString() : ctx.status().name());
    }

    @Override
    public int port() {
        return buyers.port();
    }

    int adminPort() {
        return admin.port();
    }

    /** "METHOD /path" of every route served. */
    List<String> routes() {
        return List.copyOf(routes);
    }

    @Override
    public void close() {
        buyers.stop();
        admin.stop();
    }
}
