package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One buyer joins made-up SKUs' waiting rooms as fast as eight connections go, while a real room admits its line: the
 * joins are counted before anything is read (at most the limit answered, the rest {@code 429}), none takes a
 * connection of the buy path's MySQL pool, and the real room's reading never falls behind its refresh.
 */
class QueueFloodIT {

    private static final int JOINS = 3_000;
    private static final int CONNECTIONS = 8;
    private static final int PER_USER = 20;
    private static final Duration REFRESH = Duration.ofMillis(200);
    private static final Pattern READING_AGE =
            Pattern.compile("(?m)^seckill_waiting_room_reading_age_seconds(?:\\{[^}]*})? (\\S+)$");

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void oneBuyersJoinsOfMadeUpSkusAreCountedFirstAndTheRealRoomKeepsMoving() throws Exception {
        long real = IngressFixture.newSkuId();
        Instant now = Instant.now();
        assertThat(fixture.http.defineSaleWithRoom(real, 1_000, now.minusSeconds(1), now.plusSeconds(3_600), 5)
                        .status())
                .isEqualTo(201);
        try (ManagedIngress ingress = fixture.start(Map.of(
                "SECKILL_QUEUE_RATE_LIMIT_PER_USER", Integer.toString(PER_USER),
                "SECKILL_QUEUE_RATE_LIMIT_PER_ADDRESS", "0",
                "SECKILL_QUEUE_REFRESH_MS", Long.toString(REFRESH.toMillis())))) {
            HttpApi http = ingress.http();
            String lastTicket = null;
            for (int i = 0; i < 60; i++) {
                HttpApi.Reply joined = http.join("liner-" + i, real);
                assertThat(joined.status()).isIn(200, 201);
                lastTicket = joined.json().path("ticket").asText();
            }
            long aheadBefore = http.standing("liner-59", real, lastTicket).json().path("ahead").asLong();
            double acquiredBefore = ingress.buyPoolConnectionsTaken();

            Queue<Integer> answers = new ConcurrentLinkedQueue<>();
            AtomicInteger sent = new AtomicInteger();
            AtomicBoolean flooding = new AtomicBoolean(true);
            List<Double> readingAges = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
            long started = System.nanoTime();
            try {
                List<Future<?>> flooders = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    flooders.add(pool.submit(() -> {
                        while (sent.incrementAndGet() <= JOINS) {
                            long madeUp = 9_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
                            answers.add(http.join("flooder", madeUp).status());
                        }
                    }));
                }
                Future<?> watcher = pool.submit(() -> {
                    while (flooding.get()) {
                        readingAges.add(ingress.metric(READING_AGE));
                        Thread.sleep(50);
                    }
                    return null;
                });
                for (Future<?> flooder : flooders) {
                    flooder.get(2, TimeUnit.MINUTES);
                }
                flooding.set(false);
                watcher.get(30, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            double seconds = (System.nanoTime() - started) / 1e9;

            Map<Integer, Long> byStatus = answers.stream()
                    .collect(Collectors.groupingBy(status -> status, Collectors.counting()));
            assertThat(byStatus.keySet()).as("answers to the made-up joins: %s", byStatus).containsOnly(404, 429);
            assertThat(byStatus.getOrDefault(404, 0L))
                    .as("joins answered past the limit in %.1f s: %s", seconds, byStatus)
                    .isLessThanOrEqualTo((long) (PER_USER * (Math.ceil(seconds) + 1)));
            // The readiness check pings MySQL on that pool about once a second; a join would be hundreds.
            assertThat(ingress.buyPoolConnectionsTaken() - acquiredBefore)
                    .as("connections of the buy path's pool taken during %d joins in %.1f s", JOINS, seconds)
                    .isLessThanOrEqualTo(Math.ceil(seconds) + 1);
            // The gauge reads 0 with no room watched: some reading older than nothing shows the real room was.
            assertThat(readingAges).as("the real room's reading ages").isNotEmpty()
                    .anySatisfy(age -> assertThat(age).isPositive())
                    .allSatisfy(age -> assertThat(age).isLessThanOrEqualTo(2.0 * REFRESH.toMillis() / 1000));
            assertThat(http.standing("liner-59", real, lastTicket).json().path("ahead").asLong())
                    .as("the real room's admission moved on during the flood")
                    .isLessThan(aheadBefore);
        }
    }
}
