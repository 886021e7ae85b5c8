package io.seckill.redisstate;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Whether Redis still holds what the services wrote into it. After every rebuild the marker
 * {@code seckill:epoch} is set to the server's run id, which Redis changes at every start. A marker
 * that names another run (a restart, which may have brought back an older snapshot) or a rebuild an
 * admin asked for means no sale state can be trusted. A missing marker (a first start, a flush, a
 * server started without data) means the sales Redis no longer holds were lost; the ones it holds
 * were loaded since, from MySQL. Assumes one Redis primary (with replicas or Sentinel, not Cluster).
 */
public final class RedisEpoch {

    static final String MARKER = "seckill:epoch";
    static final String REBUILD_LOCK = "seckill:epoch:rebuilding";
    static final String REBUILD_TOKENS = "seckill:epoch:rebuild-tokens";
    static final String REBUILD_REQUEST = "seckill:epoch:rebuild-requested";

    /** What the marker says. */
    public enum State {
        INTACT,
        /** No marker: sales Redis does not hold are to be rebuilt. */
        UNMARKED,
        /** Another server run, or a rebuild asked for: every sale is to be rebuilt. */
        UNTRUSTED
    }

    /** @param runId the server's current run id, to mark the state with once it is rebuilt */
    public record Check(State state, String runId) {
    }

    /** A rebuilder's hold on the rebuild lock: its fencing token, which every rebuild step checks against the lock. */
    public record RebuildLease(long token) {
    }

    private final LuaRunner lua;

    public RedisEpoch(LuaRunner lua) {
        this.lua = lua;
    }

    public Check check() {
        String runId = runId();
        if (lua.redis().exists(REBUILD_REQUEST)) {
            return new Check(State.UNTRUSTED, runId);
        }
        String marker = lua.redis().get(MARKER);
        if (marker == null) {
            return new Check(State.UNMARKED, runId);
        }
        return new Check(marker.equals(runId) ? State.INTACT : State.UNTRUSTED, runId);
    }

    /** Marks the state as rebuilt for the server run {@code runId}; a request for a rebuild is answered. */
    public void rebuilt(String runId) {
        lua.redis().set(MARKER, runId);
        lua.redis().del(REBUILD_REQUEST);
    }

    /** Asks for every sale to be rebuilt at the next check. */
    public void requestRebuild() {
        lua.redis().set(REBUILD_REQUEST, "1");
    }

    /**
     * One rebuilder at a time, among several reconcilers; the lock frees itself after {@code lease}, and a rebuilder
     * that outlived it is fenced off: its steps write nothing ({@link SaleStore#restore}).
     * @return the lease, or empty when another rebuilder holds the lock
     */
    public Optional<RebuildLease> lockRebuild(Duration lease) {
        long token = (Long) lua.run(LuaScript.REBUILD_LOCK, List.of(REBUILD_LOCK, REBUILD_TOKENS), List.of(Long.toString(lease.toMillis())));
        return token == 0 ? Optional.empty() : Optional.of(new RebuildLease(token));
    }

    /** Gives the lock back, if it is still this lease's. */
    public void unlockRebuild(RebuildLease lease) {
        lua.run(LuaScript.REBUILD_UNLOCK, List.of(REBUILD_LOCK), List.of(Long.toString(lease.token())));
    }

    private String runId() {
        for (String line : lua.redis().info("server").split("\r?\n", -1)) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).trim();
            }
        }
        throw new IllegalStateException("Redis reports no run_id in INFO server");
    }
}
