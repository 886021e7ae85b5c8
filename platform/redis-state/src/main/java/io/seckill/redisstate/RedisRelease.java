package io.seckill.redisstate;

import io.seckill.config.DeploymentMode;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Whether a Redis server's release has the fixes every service relies on being there: CVE-2025-49844 (a use-after-free
 * in the Lua interpreter, reachable by any client allowed to run a script, as every service is) and the Lua flaws fixed
 * with it (CVE-2025-46817, -46818, -46819). Each release line's first fixed release is its floor; a line older than
 * every fixed one is refused, a line newer than them taken. Valkey (which reports {@code valkey_version}) is judged by
 * its own releases. Production refuses to start on a server below its floor; development says so and goes on (the
 * development servers run what the machine has).
 */
public final class RedisRelease {

    private static final Logger LOG = LoggerFactory.getLogger(RedisRelease.class);
    /** Before the floors: parsing them needs it. */
    private static final Pattern DOT = Pattern.compile("\\.");

    /** Each Redis release line's first release with the fixes, by line. */
    static final NavigableMap<Version, Version> REDIS_FIXED = floors("6.2.20", "7.2.11", "7.4.6", "8.0.4", "8.2.2");
    /** Valkey's likewise. */
    static final NavigableMap<Version, Version> VALKEY_FIXED = floors("7.2.11", "8.0.6", "8.1.4");

    private RedisRelease() {
    }

    /** A release, {@code major.minor.patch}. */
    record Version(int major, int minor, int patch) implements Comparable<Version> {

        static Version parse(String text) {
            String[] parts = DOT.split(text.trim(), -1);
            if (parts.length < 2) {
                throw new IllegalArgumentException("not a release: " + text);
            }
            return new Version(
                    Integer.parseInt(parts[0]),
                    Integer.parseInt(parts[1]),
                    parts.length > 2 ? Integer.parseInt(parts[2]) : 0);
        }

        Version line() {
            return new Version(major, minor, 0);
        }

        @Override
        public int compareTo(Version other) {
            int byMajor = Integer.compare(major, other.major);
            if (byMajor != 0) {
                return byMajor;
            }
            int byMinor = Integer.compare(minor, other.minor);
            return byMinor != 0 ? byMinor : Integer.compare(patch, other.patch);
        }

        @Override
        public String toString() {
            return major + "." + minor + "." + patch;
        }
    }

    private static NavigableMap<Version, Version> floors(String... fixed) {
        NavigableMap<Version, Version> floors = new TreeMap<>();
        for (String release : fixed) {
            Version version = Version.parse(release);
            floors.put(version.line(), version);
        }
        return floors;
    }

    /**
     * @param infoServer a server's {@code INFO server}
     * @return why the server's release lacks the fixes, or empty when it has them
     */
    public static Optional<String> lacking(String infoServer) {
        Optional<String> valkey = field(infoServer, "valkey_version");
        String product = valkey.isPresent() ? "Valkey" : "Redis";
        Version version = Version.parse(valkey.or(() -> field(infoServer, "redis_version"))
                .orElseThrow(() -> new IllegalStateException("INFO server names no release")));
        NavigableMap<Version, Version> fixed = valkey.isPresent() ? VALKEY_FIXED : REDIS_FIXED;
        Version floor = fixed.get(version.line());
        Version newest = fixed.lastKey();
        if (floor == null && version.line().compareTo(newest) > 0) {
            return Optional.empty();
        }
        if (floor != null && version.compareTo(floor) >= 0) {
            return Optional.empty();
        }
        return Optional.of(product + " " + version
                + " lacks the fix for CVE-2025-49844 (a use-after-free in Lua scripts, which every service runs): "
                + (floor != null
                        ? "upgrade to " + floor + " or later"
                        : "upgrade to one of " + fixed.values() + " or a later line"));
    }

    private static Optional<String> field(String info, String name) {
        return info.lines()
                .filter(line -> line.startsWith(name + ":"))
                .findFirst()
                .map(line -> line.substring(name.length() + 1).trim());
    }

    /**
     * Checks every primary at a service's start: in production a release below its floor is refused (throws), in
     * development logged. A Redis that does not answer now is waited out as any outage is; its release is then left
     * unchecked, which the log says.
     *
     * @throws IllegalStateException in production, naming the server and the release to upgrade to
     */
    public static void check(UnifiedJedis redis, DeploymentMode mode) {
        List<RedisPrimaries.Primary> primaries;
        try {
            primaries = RedisPrimaries.of(redis);
        } catch (JedisException unreachable) {
            LOG.warn("Redis did not answer at start ({}): its release is not checked", unreachable.toString());
            return;
        }
        for (RedisPrimaries.Primary primary : primaries) {
            Optional<String> lacking;
            try {
                lacking = lacking(primary.info("server"));
            } catch (JedisException unreachable) {
                LOG.warn(
                        "Redis {} did not answer INFO server at start ({}): its release is not checked",
                        primary,
                        unreachable.toString());
                continue;
            }
            if (lacking.isPresent()) {
                switch (mode) {
                    case PRODUCTION -> throw new IllegalStateException("Redis " + primary + ": " + lacking.get());
                    // Said, not warned: development runs on the Redis it is given, such as the embedded one's binary.
                    case DEVELOPMENT -> LOG.info("Redis {}: {} (refused in production)", primary, lacking.get());
                }
            }
        }
    }
}
