package io.seckill.redisstate;

import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Whether Redis may evict what a sale cannot lose. Sale state (stock, reservations, ledgers, sale definitions) has no
 * lifetime; what may go under memory pressure has one: stored idempotent replies (a retry then finds its order in
 * MySQL), rate-limit counters, order-status copies (MySQL answers), spent sale-pass challenges (a replay then gets its
 * buyer a second pass for the same sale, which a fresh challenge would give them too), the rebuild lock (fenced: a
 * rebuild step whose lock is gone stops). So the policy must evict only keys with a lifetime ({@code volatile-*}), or
 * nothing ({@code noeviction}: writes fail when full, nothing is lost), read with {@link RedisMemory}.
 */
public final class EvictionPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(EvictionPolicy.class);

    private EvictionPolicy() {
    }

    /** What the server's settings mean for sale state. */
    public enum Verdict {
        /** Bounded; only keys with a lifetime are evicted. */
        SAFE,
        /** Bounded; nothing is evicted, writes fail once it is full. */
        REFUSES_WRITES_WHEN_FULL,
        /** No memory limit: a flood of keys grows Redis until the host runs out. */
        UNBOUNDED,
        /** Any key may be evicted, stock and ledgers too. */
        DROPS_SALE_STATE
    }

    /** The verdict on a memory limit (bytes, 0 for none) and an eviction policy, as Redis names them. */
    public static Verdict of(long maxMemory, String policy) {
        String normalised = policy.toLowerCase(Locale.ROOT);
        if (normalised.startsWith("allkeys-")) {
            return Verdict.DROPS_SALE_STATE;
        }
        if (maxMemory == 0) {
            return Verdict.UNBOUNDED;
        }
        return normalised.startsWith("volatile-") ? Verdict.SAFE : Verdict.REFUSES_WRITES_WHEN_FULL;
    }

    /**
     * Checks the server at a service's start: refuses (throws) a policy that may evict sale state, warns when memory is
     * unbounded or writes will fail when full. A Redis that does not answer now is waited out as any outage is (the
     * service reports not ready); its policy is then left unchecked, which the log says.
     * @throws IllegalStateException when Redis may evict sale state
     */
    public static void check(UnifiedJedis redis) {
        List<RedisPrimaries.Primary> primaries;
        try {
            primaries = RedisPrimaries.of(redis);
        } catch (JedisException unreachable) {
            LOG.warn("Redis did not answer at start ({}): its eviction policy is not checked", unreachable.toString());
            return;
        }
        for (RedisPrimaries.Primary primary : primaries) {
            check(primary);
        }
    }

    /** Each primary holds the sale state of its own slots: each is checked on its own. */
    private static void check(RedisPrimaries.Primary primary) {
        RedisMemory memory;
        try {
            memory = RedisMemory.read(primary);
        } catch (JedisException unreachable) {
            LOG.warn(
                    "Redis {} did not answer INFO memory at start ({}): its eviction policy is not checked",
                    primary,
                    unreachable.toString());
            return;
        }
        long maxMemory = memory.maxBytes();
        String policy = memory.policy();
        switch (of(maxMemory, policy)) {
            case SAFE ->
                LOG.info(
                        "Redis {}: maxmemory {} bytes, policy {}: only keys with a lifetime can be evicted",
                        primary,
                        maxMemory,
                        policy);
            case REFUSES_WRITES_WHEN_FULL ->
                LOG.warn(
                        "Redis {}: maxmemory {} bytes, policy {}: once full, every write fails (the sale stops "
                                + "taking orders); volatile-lru lets stored replies and counters go instead",
                        primary,
                        maxMemory,
                        policy);
            case UNBOUNDED ->
                LOG.warn(
                        "Redis {} has no maxmemory: stored replies and counters can grow it until the host runs out;"
                                + " set maxmemory with maxmemory-policy volatile-lru",
                        primary);
            case DROPS_SALE_STATE ->
                throw new IllegalStateException(
                        "Redis " + primary + "'s maxmemory-policy is " + policy + ", which may evict stock and"
                                + " reservations; use volatile-lru"
                                + " (only keys with a lifetime go) or"
                                + " noeviction");
        }
    }
}
