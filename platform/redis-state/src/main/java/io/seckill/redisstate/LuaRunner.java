package io.seckill.redisstate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs the project's Lua scripts by SHA for the stores of this package; a server that lost its script cache is sent the
 * source once. Either each call is its own round trip, or, for a service whose threads call all at once, calls that
 * coincide share one pipeline ({@link #pipelined}).
 */
public final class LuaRunner implements AutoCloseable {

    private final UnifiedJedis redis;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);
    private final ScriptPipeline pipeline;

    private LuaRunner(UnifiedJedis redis, ScriptPipeline pipeline) {
        this.redis = redis;
        this.pipeline = pipeline;
        for (LuaScript script : LuaScript.values()) {
            shas.put(script, sha1(script.source()));
        }
    }

    /** Each call its own round trip. */
    public LuaRunner(UnifiedJedis redis) {
        this(redis, null);
    }

    /** Concurrent calls coalesced into pipelines by {@code senderThreads} threads. */
    public static LuaRunner pipelined(UnifiedJedis redis, int senderThreads) {
        return new LuaRunner(redis, new ScriptPipeline(redis, senderThreads));
    }

    Object run(LuaScript script, List<String> keys, List<String> args) {
        if (pipeline != null) {
            return pipeline.runAll(List.of(call(new ScriptCall(script, keys, args)))).get(0);
        }
        try {
            return redis.evalsha(shas.get(script), keys, args);
        } catch (JedisNoScriptException e) {
            return ScriptPipeline.loadAndRun(redis, shas.get(script), script.source(), keys, args);
        }
    }

    /**
     * Runs independent calls together: one pipeline (or, pipelined, whichever batches the senders
     * make of them). Each call is atomic on its own, not all together, and they run in no promised
     * order relative to each other.
     * @return their replies, in the calls' order; @throws RuntimeException the first failure, if any failed
     */
    List<Object> runAll(List<ScriptCall> calls) {
        if (calls.isEmpty()) {
            return List.of();
        }
        List<ScriptPipeline.Call> pipelined = calls.stream().map(this::call).toList();
        return pipeline != null ? pipeline.runAll(pipelined) : ScriptPipeline.runNow(redis, pipelined);
    }

    private ScriptPipeline.Call call(ScriptCall call) {
        return new ScriptPipeline.Call(shas.get(call.script()), call.script().source(), call.keys(), call.args());
    }

    UnifiedJedis redis() {
        return redis;
    }

    /** Stops the pipeline's senders, if any; the Redis client is its owner's to close. */
    @Override
    public void close() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
