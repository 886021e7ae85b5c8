package io.seckill.ingress.http;

import io.seckill.mysqlstate.SqlFailures;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Tells a dependency that is down or too slow apart from a defect: Redis or MySQL unreachable, timing
 * out, out of connections, loading or read-only is a 503 with {@code Retry-After} and a code naming
 * the dependency; a buyer's retry may succeed, and nothing is charged for a request that failed so.
 * Anything else is a defect, answered 500 and logged with its stack trace.
 */
public final class DependencyOutage {

    /** How soon a client may try again: outages the services outlast are mostly seconds long. */
    static final int RETRY_AFTER_SECONDS = 1;
    /** Redis's own answers for "not now": loading its data, no primary, a read-only replica, a cluster resharding. */
    private static final Set<String> REDIS_NOT_NOW =
            Set.of("LOADING", "MASTERDOWN", "READONLY", "TRYAGAIN", "CLUSTERDOWN");

    private DependencyOutage() {
    }

    /** The 503 to answer {@code failure} with, when it is an outage of a dependency. */
    public static Optional<Problem> of(Throwable failure) {
        if (redisUnavailable(failure)) {
            return Optional.of(problem(ErrorCode.REDIS_UNAVAILABLE, "Redis"));
        }
        if (SqlFailures.unavailable(failure)) {
            return Optional.of(problem(ErrorCode.DATABASE_UNAVAILABLE, "the database"));
        }
        return Optional.empty();
    }

    private static Problem problem(ErrorCode code, String dependency) {
        return new Problem(code, dependency + " is unavailable; nothing was charged, try again shortly")
                .with(Problem.RETRY_AFTER_SECONDS, RETRY_AFTER_SECONDS);
    }

    private static boolean redisUnavailable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            // A cluster client out of attempts: the slot's primary is down and no replica has taken its place yet.
            if (cause instanceof JedisConnectionException
                    || cause instanceof JedisBusyException
                    || cause instanceof JedisClusterOperationException) {
                return true;
            }
            if (cause instanceof JedisDataException data && data.getMessage() != null
                    && REDIS_NOT_NOW.contains(data.getMessage().split(" ", 2)[0])) {
                return true;
            }
            // A pool that had no free connection within its wait.
            if (cause instanceof JedisException && cause.getCause() instanceof NoSuchElementException) {
                return true;
            }
        }
        return false;
    }
}
