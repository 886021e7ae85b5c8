package io.seckill.redisstate;

import io.seckill.redisstate.RedisPrimaries.Primary;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Whether each Redis primary still holds what the services wrote into it. After every rebuild of a primary's sales a
 * marker on that primary ({@link #markerKey}) is set to the server's run id, which Redis changes at every start and
 * which a replica promoted in its primary's place does not share. A marker that names another run (a restart, which may
 * have brought back an older snapshot; a failover, whose replica may have missed the dead primary's last writes) or a
 * rebuild an admin asked for means none of that primary's sale state can be trusted. A missing marker (a first start, a
 * flush, a server started without data) means the sales it no longer holds were lost; the ones it holds were loaded
 * since, from MySQL. A single node is one primary serving every slot; a cluster's primaries are checked one by one,
 * each for the SKUs of its own slots.
 */
public final class RedisEpoch {

    static final String REBUILD_REQUEST = "seckill:epoch:rebuild-requested";
    private static final String TAG_PREFIX = "epoch-";

    /** What a primary's marker says. */
    public enum State {
        INTACT,
        /** No marker: the primary's sales it does not hold are to be rebuilt. */
        UNMARKED,
        /**
         * Another server run, or a rebuild asked for and not yet done here: every sale of the primary is to be rebuilt.
         */
        UNTRUSTED
    }

    /**
     * @param runId the primary's current run id, to mark its state with once it is rebuilt
     * @param request the rebuild asked for when it was checked, which the rebuild answers; empty when none was
     */
    public record Check(Primary primary, State state, String runId, Optional<String> request) {
    }

    /** A rebuilder's hold on a primary's rebuild: one rebuilder per primary at a time, among several reconcilers. */
    public record PrimaryLease(Primary primary, long token) {
    }

    private final LuaRunner lua;
    /** Slot -> the first tag {@code epoch-N} hashing to it: found once, it never changes. */
    private final Map<Integer, String> tags = new ConcurrentHashMap<>();

    public RedisEpoch(LuaRunner lua) {
        this.lua = lua;
    }

    /**
     * The primaries as the slot map says now. @throws redis.clients.jedis.exceptions.JedisException when Redis does not
     * answer
     */
    public List<Primary> primaries() {
        return RedisPrimaries.of(lua.redis());
    }

    /** Every primary's state, as the slot map says now, against the rebuild request read once for all of them. */
    public List<Check> checks() {
        Optional<String> request = Optional.ofNullable(lua.redis().get(REBUILD_REQUEST));
        return primaries().stream().map(primary -> check(primary, request)).toList();
    }

    private Check check(Primary primary, Optional<String> request) {
        String runId = runId(primary);
        Optional<Marker> marker = marker(primary);
        if (marker.isEmpty()) {
            return new Check(primary, request.isPresent() ? State.UNTRUSTED : State.UNMARKED, runId, request);
        }
        boolean trusted = marker.get().runId().equals(runId)
                && (request.isEmpty() || request.equals(marker.get().answered()));
        return new Check(primary, trusted ? State.INTACT : State.UNTRUSTED, runId, request);
    }

    /** Whether every primary holds what it was given (nothing to rebuild anywhere). */
    public boolean allIntact() {
        return checks().stream().allMatch(check -> check.state() == State.INTACT);
    }

    /**
     * Marks the primary as rebuilt for the server run {@code check} saw, answering the rebuild asked for then, if any;
     * the request is withdrawn once every primary has answered it (a primary whose marker is lost later is then judged
     * on its own, as unmarked).
     */
    public void rebuilt(Check check) {
        lua.redis().set(markerKey(check.primary()), new Marker(check.runId(), check.request()).text());
        if (check.request().isPresent()
                && primaries().stream()
                        .allMatch(primary ->
                                marker(primary).flatMap(Marker::answered).equals(check.request()))) {
            // Compare-and-delete: a newer request made meanwhile stays.
            lua.run(LuaScript.REBUILD_UNLOCK, List.of(REBUILD_REQUEST), List.of(check.request().get()));
        }
    }

    private Optional<Marker> marker(Primary primary) {
        return Optional.ofNullable(lua.redis().get(markerKey(primary))).map(Marker::parse);
    }

    /** A marker's value: the server run it was rebuilt for, then, after a space, the rebuild request it answered. */
    private record Marker(String runId, Optional<String> answered) {

        static Marker parse(String text) {
            int space = text.indexOf(' ');
            return space < 0
                    ? new Marker(text, Optional.empty())
                    : new Marker(text.substring(0, space), Optional.of(text.substring(space + 1)));
        }

        String text() {
            return runId + answered.map(request -> " " + request).orElse("");
        }
    }

    /** Asks for every sale to be rebuilt, on every primary, at its next check. */
    public void requestRebuild() {
        lua.redis().set(REBUILD_REQUEST, UUID.randomUUID().toString());
    }

    /**
     * One rebuilder per primary at a time; the lock frees itself after {@code lease}. Only who works is decided here:
     * each SKU's rebuild is fenced by its own lock ({@link SaleStore#lockRebuild}).
     * @return the lease, or empty when another rebuilder holds the primary
     */
    public Optional<PrimaryLease> lockRebuild(Primary primary, Duration lease) {
        long token = (Long) lua.run(
                LuaScript.REBUILD_LOCK,
                List.of(lockKey(primary), tokensKey(primary)),
                List.of(Long.toString(lease.toMillis())));
        return token == 0 ? Optional.empty() : Optional.of(new PrimaryLease(primary, token));
    }

    /** Gives the lock back, if it is still this lease's. */
    public void unlockRebuild(PrimaryLease lease) {
        lua.run(LuaScript.REBUILD_UNLOCK, List.of(lockKey(lease.primary())), List.of(Long.toString(lease.token())));
    }

    /**
     * The marker of a primary: a key in the first slot it serves, which stays with those slots, so a promoted replica
     * finds the marker its dead primary wrote (with the dead primary's run id).
     */
    public String markerKey(Primary primary) {
        return "seckill:{" + tag(primary.firstSlot()) + "}";
    }

    private String lockKey(Primary primary) {
        return markerKey(primary) + ":rebuilding";
    }

    private String tokensKey(Primary primary) {
        return markerKey(primary) + ":rebuild-tokens";
    }

    private String tag(int slot) {
        return tags.computeIfAbsent(slot, RedisEpoch::firstTagOf);
    }

    private static String firstTagOf(int slot) {
        for (int n = 0; ; n++) {
            String tag = TAG_PREFIX + n;
            if (JedisClusterCRC16.getSlot(tag) == slot) {
                return tag;
            }
        }
    }

    private static String runId(Primary primary) {
        for (String line : primary.info("server").split("\r?\n", -1)) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).trim();
            }
        }
        throw new IllegalStateException("Redis " + primary + " reports no run_id in INFO server");
    }
}
