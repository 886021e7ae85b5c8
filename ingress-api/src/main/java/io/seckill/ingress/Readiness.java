package io.seckill.ingress;

import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.jooq.DSLContext;
import redis.clients.jedis.UnifiedJedis;

/** {@code /ready}: can this instance reach Redis, MySQL and Kafka right now? 200, or 503 naming what is down. */
record Readiness(UnifiedJedis redis, DSLContext dsl, Admin kafka) {

    private static final long KAFKA_TIMEOUT_MS = 2_000;

    void get(Context ctx) {
        Map<String, String> checks = new LinkedHashMap<>();
        checks.put("redis", check(() -> redis.ping()));
        checks.put("mysql", check(() -> dsl.selectOne().fetch()));
        checks.put("kafka", check(() -> kafka.describeCluster().nodes().get(KAFKA_TIMEOUT_MS, TimeUnit.MILLISECONDS)));
        if (checks.values().stream().allMatch("UP"::equals)) {
            Json.respond(ctx, 200, Map.of("status", "READY", "checks", checks));
        } else {
            Json.problem(ctx, new Problem(ErrorCode.SERVICE_UNAVAILABLE, "a dependency is unreachable").with("checks", checks));
        }
    }

    private static String check(Probe probe) {
        try {
            probe.run();
            return "UP";
        } catch (Exception e) {
            return "DOWN: " + e.getClass().getSimpleName();
        }
    }

    @FunctionalInterface
    private interface Probe {
        void run() throws Exception;
    }
}
