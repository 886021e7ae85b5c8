package io.seckill.ingress.admin;

import io.seckill.ingress.http.Json;
import io.javalin.http.Context;
import io.seckill.redisstate.RedisEpoch;
import java.util.Map;

/**
 * {@code POST /admin/v1/redis/rebuild}: asks for every sale to be rebuilt in Redis from MySQL, e.g.
 * after Redis was restored from a backup. The reconciler, which watches for lost state, does the work
 * within its watch interval; the answer only says it was asked.
 */
public record RedisAdmin(RedisEpoch epoch) {

    public void rebuild(Context ctx) {
        epoch.requestRebuild();
        Json.respond(ctx, 202, Map.of("status", "REBUILD_REQUESTED",
                "detail", "the reconciler rebuilds every sale from MySQL within SECKILL_REDIS_WATCH_INTERVAL_MS"));
    }
}
