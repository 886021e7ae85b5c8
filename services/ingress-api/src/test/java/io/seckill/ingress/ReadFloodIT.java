package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.InfraAddresses;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.runtime.Concurrently;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The bulkhead: buyers' order lists flood the ingress while MySQL holds the {@code orders} table (a slow read path at
 * its worst: every list query waits, holding its connection). The lists can only ever hold the query pool's
 * connections; the sale's outbox writes have their own, so every winner's row is committed within the outbox wait
 * (none fenced), and every list request is answered 200, or 503 once the query pool is busy.
 */
class ReadFloodIT {

    private static final int FLOODERS = 24;
    private static final Duration STUCK = Duration.ofSeconds(1);
    private static final int STOCK = 60;
    private static final int BUYERS = 100;
    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aFloodOfReadsThatReachMySqlNeverTakesTheBuyersConnections() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, STOCK, 1);
        Queue<Integer> floodAnswers = new ConcurrentLinkedQueue<>();
        AtomicBoolean flooding = new AtomicBoolean(true);
        ExecutorService flood = Executors.newFixedThreadPool(FLOODERS);
        try (ManagedIngress ingress = fixture.start(
                        Map.of("SECKILL_INGRESS_QUERY_POOL_SIZE", "2", "SECKILL_INGRESS_QUERY_POOL_WAIT_MS", "250"));
                Connection holder = ownerConnection()) {
            HttpApi http = ingress.http();
            try (Statement lock = holder.createStatement()) {
                lock.execute("LOCK TABLES orders WRITE");
            }
            List<Future<?>> flooders = new ArrayList<>();
            Map<String, Long> inFlightSince = new ConcurrentHashMap<>();
            for (int i = 0; i < FLOODERS; i++) {
                String flooder = "flooder-" + i;
                flooders.add(flood.submit(() -> {
                    while (flooding.get()) {
                        inFlightSince.put(flooder, System.nanoTime());
                        floodAnswers.add(http.orders(flooder, sku).status());
                        inFlightSince.remove(flooder);
                    }
                }));
            }
            // The sale starts once the flood has reads stuck in MySQL, holding connections.
            await().atMost(Duration.ofSeconds(30)).until(() -> inFlightSince.values().stream()
                    .anyMatch(since -> System.nanoTime() - since > STUCK.toNanos()));

            List<HttpApi.Reply> buys = Concurrently.run(BUYERS, () -> http.buy(sku, "buyer-" + UUID.randomUUID(), 1));

            flooding.set(false);
            try (Statement unlock = holder.createStatement()) {
                unlock.execute("UNLOCK TABLES");
            }
            for (Future<?> flooder : flooders) {
                flooder.get(60, TimeUnit.SECONDS);
            }
            assertThat(buys).extracting(HttpApi.Reply::status).containsOnly(202, 409);
            List<String> accepted = buys.stream()
                    .filter(reply -> reply.status() == 202)
                    .map(HttpApi.Reply::orderId)
                    .toList();
            assertThat(accepted).hasSize(STOCK);
            // Each winner's row was committed in time: none waited for a connection past the outbox wait and was
            // fenced.
            assertThat(new OutboxLookups().states(fixture.sql(), accepted))
                    .hasSize(STOCK)
                    .doesNotContainValue(OutboxLookups.RowState.VOIDED);
            assertThat(floodAnswers).isNotEmpty().allMatch(status -> status == 200 || status == 503);
            assertThat(floodAnswers).as("the query pool was busy: the flood was refused, not queued").contains(503);
        } finally {
            flood.shutdownNow();
        }
    }

    /** As the migration account, which may lock the table: the database's own stall, staged. */
    private static Connection ownerConnection() throws Exception {
        InfraAddresses owner = LocalInfrastructure.get().ownerAddresses();
        return DriverManager.getConnection(owner.mysqlUrl(), owner.mysqlUser(), owner.mysqlPassword());
    }
}
