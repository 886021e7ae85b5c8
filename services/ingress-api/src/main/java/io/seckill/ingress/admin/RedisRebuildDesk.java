package io.seckill.ingress.admin;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.redisstate.RedisEpoch;

/**
 * {@code POST /admin/v1/redis/rebuild}: asks for every sale to be rebuilt in Redis from MySQL, e.g.
 * after Redis was restored from a backup. The reconciler, which watches for lost state, does the work
 * within its watch interval; the answer only says it was asked.
 */
public record RedisRebuildDesk(RedisEpoch epoch) implements Feature {

    public static RedisRebuildDesk of(IngressParts parts) {
        return new RedisRebuildDesk(new RedisEpoch(parts.lua()));
    }

    @Override
    public void adminRoutes(JavalinConfig admin) {
        admin.routes.post("/admin/v1/redis/rebuild", this::rebuild);
    }


    public void rebuild(Context ctx) {
        epoch.requestRebuild();
        Json.respond(ctx, 202, new RebuildRequested("REBUILD_REQUESTED",
                "the reconciler rebuilds every sale from MySQL within SECKILL_REDIS_WATCH_INTERVAL_MS"));
    }

    /** The answer to a rebuild asked for: only that it was asked. */
    record RebuildRequested(String status, String detail) {
    }
}
