package io.seckill.redisstate;

import java.time.Duration;
import java.util.Optional;
import redis.clients.jedis.params.SetParams;

/**
 * Whether Redis still holds what the services wrote into it. After every rebuild the marker
 * {@code seckill:epoch} is set to the server's run id, which Redis changes at every start. A marker
 * that is missing (a flush, a server started without data, a rebuild asked for) or names another run
 * (a restart, which may have brought back an older snapshot) means the sale state cannot be trusted:
 * it is rebuilt from MySQL. Assumes one Redis primary (with replicas or Sentinel, not Cluster).
 */
public final class RedisEpoch {

    static final String MARKER = "seckill:epoch";
    static final String REBUILD_LOCK = "seckill:epoch:rebuilding";

    private final LuaRunner lua;

    public RedisEpoch(LuaRunner lua) {
        this.lua = lua;
    }

    /** @return the server's current run id when the marker does not name it: the state must be rebuilt */
    public Optional<String> lost() {
        String runId = runId();
        return runId.equals(lua.redis().get(MARKER)) ? Optional.empty() : Optional.of(runId);
    }

    /** Marks the state as rebuilt for the server run {@code runId}. */
    public void rebuilt(String runId) {
        lua.redis().set(MARKER, runId);
    }

    /** Asks for a rebuild: the next check finds the marker gone. */
    public void requestRebuild() {
        lua.redis().del(MARKER);
    }

    /** One rebuilder at a time, among several reconcilers; the lock frees itself after {@code ttl}. */
    public boolean lockRebuild(String owner, Duration ttl) {
        return "OK".equals(lua.redis().set(REBUILD_LOCK, owner, SetParams.setParams().nx().px(ttl.toMillis())));
    }

    public void unlockRebuild(String owner) {
        if (owner.equals(lua.redis().get(REBUILD_LOCK))) {
            lua.redis().del(REBUILD_LOCK);
        }
    }

    private String runId() {
        for (String line : lua.redis().info("server").split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).trim();
            }
        }
        throw new IllegalStateException("Redis reports no run_id in INFO server");
    }
}
