package io.seckill.runtime;

import io.seckill.schemas.redis.LuaScript;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** Runs the project's Lua scripts by SHA; a server that lost its script cache is sent the source once. */
public final class LuaRunner {

    private final UnifiedJedis redis;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);

    public LuaRunner(UnifiedJedis redis) {
        this.redis = redis;
        for (LuaScript script : LuaScript.values()) {
            shas.put(script, sha1(script.source()));
        }
    }

    public Object run(LuaScript script, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(shas.get(script), keys, args);
        } catch (JedisNoScriptException e) {
            return redis.eval(script.source(), keys, args);
        }
    }

    public UnifiedJedis redis() {
        return redis;
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
