package io.seckill.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletionException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

class DependencyOutageTest {

    @Test
    void redisUnreachableLoadingOrOutOfConnectionsIsA503NamingRedis() {
        for (Throwable failure : new Throwable[] {
            new JedisConnectionException(new ConnectException("Connection refused")),
            new CompletionException(new JedisConnectionException("Read timed out")),
            new JedisDataException("LOADING Redis is loading the dataset in memory"),
            new JedisDataException("CLUSTERDOWN The cluster is down"),
            new JedisClusterOperationException("No more cluster attempts left."),
            new JedisException(
                    "Could not get a resource from the pool",
                    new NoSuchElementException("Timeout waiting for idle object"))
        }) {
            assertThat(DependencyOutage.of(failure)).as(failure.toString()).hasValueSatisfying(problem -> {
                assertThat(problem.code()).isEqualTo(ErrorCode.REDIS_UNAVAILABLE);
                assertThat(problem.code().status()).isEqualTo(503);
                assertThat(problem.extensions())
                        .containsEntry(Problem.RETRY_AFTER_SECONDS, DependencyOutage.RETRY_AFTER_SECONDS);
            });
        }
    }

    @Test
    void aDatabaseWithoutConnectionsOrReadOnlyIsA503NamingTheDatabase() {
        for (Throwable failure : new Throwable[] {
            new DataAccessException(
                    "pool",
                    new SQLTransientConnectionException(
                            "Connection is not available, request timed out after 30000ms")),
            new DataAccessException("lost", new SQLException("Communications link failure", "08S01")),
            new DataAccessException("read-only", new SQLException("running with the --read-only option", "HY000", 1290))
        }) {
            assertThat(DependencyOutage.of(failure))
                    .as(failure.toString())
                    .map(Problem::code)
                    .contains(ErrorCode.DATABASE_UNAVAILABLE);
        }
    }

    @Test
    void aDefectIsNoOutage() {
        assertThat(DependencyOutage.of(new NullPointerException())).isEmpty();
        assertThat(DependencyOutage.of(new JedisDataException("ERR Error running script: attempt to compare nil")))
                .isEmpty();
        assertThat(DependencyOutage.of(new DataAccessException("bad", new SQLException("syntax error", "42000", 1064))))
                .isEmpty();
        assertThat(DependencyOutage.of(
                        new DataAccessException("trigger", new SQLException("sku refused by test", "45000", 1644))))
                .isEmpty();
    }
}
