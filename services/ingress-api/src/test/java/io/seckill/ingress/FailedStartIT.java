package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.localinfra.LocalInfrastructure;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * An ingress whose start fails part-way closes what it had opened: no thread, no MySQL or Redis connection stays
 * behind.
 */
class FailedStartIT {

    /** Threads the JVM and the test itself may start meanwhile. */
    private static final Set<String> SHARED_THREADS =
            Set.of("ForkJoinPool.commonPool", "process reaper", "Attach Listener", "awaitility");

    @ParameterizedTest
    @ValueSource(strings = {"the buyers' port taken", "an unknown payment port"})
    void aStartThatFailsLeavesNothingOpen(String failure) throws Exception {
        IngressFixture fixture = IngressFixture.get();
        try (ServerSocket taken = new ServerSocket(0)) {
            Map<String, String> settings = failure.startsWith("the buyers")
                    ? Map.of("SECKILL_HTTP_PORT", Integer.toString(taken.getLocalPort()))
                    : Map.of("SECKILL_PAYMENT_VERIFIER", "no-such-provider");
            Set<String> threadsBefore = threadNames();
            int mysqlBefore = mysqlConnections(fixture);
            int redisBefore = redisClients();

            assertThatThrownBy(() -> fixture.start(settings)).as(failure).isInstanceOf(RuntimeException.class);

            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                assertThat(newThreads(threadsBefore)).as("threads left by the failed start").isEmpty();
                assertThat(mysqlConnections(fixture)).as("MySQL connections").isLessThanOrEqualTo(mysqlBefore);
                assertThat(redisClients()).as("Redis connections").isLessThanOrEqualTo(redisBefore);
            });
        }
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .collect(Collectors.toSet());
    }

    private static Set<String> newThreads(Set<String> before) {
        Set<String> now = threadNames();
        now.removeAll(before);
        now.removeIf(name -> SHARED_THREADS.stream().anyMatch(name::startsWith));
        return now;
    }

    private static int mysqlConnections(IngressFixture fixture) {
        return fixture.sql().fetchCount(fixture.sql().selectOne().from("information_schema.PROCESSLIST"));
    }

    private static int redisClients() {
        try (Jedis connection = new Jedis(LocalInfrastructure.get().addresses().redis().firstNodeUri())) {
            // This connection is one of the clients listed.
            return (int) connection.clientList().lines().filter(line -> !line.isBlank()).count() - 1;
        }
    }
}
