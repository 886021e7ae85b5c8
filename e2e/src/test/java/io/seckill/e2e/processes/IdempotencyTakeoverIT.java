package io.seckill.e2e.processes;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi;
import io.seckill.mysqlstate.Outbox;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.redisstate.RedisProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The idempotency claim of a buy is a lease: an ingress that is paused (a GC pause, SIGSTOP) between
 * its reservation and its outbox insert for longer than that lets a retry on another ingress take the
 * key over. The retry finds the buyer at the per-user limit (the paused request holds the slot) and
 * must not store that refusal as the key's final answer while the paused order can still be recorded:
 * once everything has moved again, the key's answer and what the buyer holds agree (P7).
 *
 * <p>The pause is made exact: the test holds an uncommitted outbox row with the same buyer and key, so
 * the first request's insert waits inside MySQL; the ingress is stopped once it waits; the row is
 * rolled back only after the retry has answered or is itself waiting on MySQL; then the ingress resumes.
 */
class IdempotencyTakeoverIT {

    private static final int LIMIT = 2;
    private static final String BUYER = "paused-buyer";
    private static final String KEY = "buy-once-" + UUID.randomUUID();
    private static final AtomicLong NEXT_SKU =
            new AtomicLong(9_100_000_000L + System.currentTimeMillis() % 100_000_000L);

    @Test
    void aRetryThatTakesOverTheKeyOfAPausedBuyNeverStoresARefusalTheBuyerDoesNotEndWith() throws Exception {
        try (ProcessCluster cluster =
                ProcessCluster.start("idempotency-takeover", Map.of("SECKILL_OUTBOX_WAIT_MS", "5000"))) {
            SeckillProcess paused = cluster.launch("ingress-paused", "ingress-api");
            SeckillProcess other = cluster.launch("ingress-other", "ingress-api");
            ProcessCluster.awaitReady(paused, other);
            HttpApi first = ProcessCluster.buyersApi(paused);
            HttpApi second = ProcessCluster.buyersApi(other);
            long sku = NEXT_SKU.incrementAndGet();
            assertThat(first.openSale(sku, 10, LIMIT).status()).isLessThan(300);
            RedisProbe redis = new RedisProbe(cluster.redis);

            HttpApi.Reply retry;
            try (Connection blocker = cluster.database.dsl().configuration().connectionProvider().acquire()) {
                blocker.setAutoCommit(false);
                holdTheKey(blocker, sku);
                // Its buyer's client may give up while the ingress is paused, as a real one would.
                var _ = CompletableFuture.runAsync(() -> first.buy(sku, BUYER, LIMIT, KEY));
                await().atMost(Duration.ofSeconds(4))
                        .until(() -> redis.heldBy(sku, BUYER) == LIMIT && waitingOnLocks(blocker) >= 1);
                paused.pause();
                try {
                    CompletableFuture<HttpApi.Reply> retryAnswer =
                            CompletableFuture.supplyAsync(() -> retryUntilTakenOver(second, sku));
                    await().atMost(Duration.ofMinutes(2))
                            .until(() -> retryAnswer.isDone() || waitingOnLocks(blocker) >= 2);
                    blocker.rollback();
                    retry = retryAnswer.get();
                } finally {
                    paused.resume();
                }
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<String> recorded = recordedOrders(cluster, sku);
                if (retry.status() == 202) {
                    assertThat(recorded)
                            .as("the key's answer is an order the buyer holds")
                            .containsExactly(retry.orderId());
                } else {
                    assertThat(recorded)
                            .as("the key answered " + retry.status() + " " + retry.code()
                                    + ": the buyer holds no order")
                            .isEmpty();
                    assertThat(redis.heldBy(sku, BUYER))
                            .as("the paused order's reservation went back")
                            .isZero();
                }
            });
            HttpApi.Reply again = second.buy(sku, BUYER, LIMIT, KEY);
            assertThat(again.status()).as("a later retry gets the key's answer").isEqualTo(retry.status());
            assertThat(again.body()).isEqualTo(retry.body());
        }
    }

    /**
     * An uncommitted outbox row with the buyer and key: the first request's insert waits on it until it is rolled back.
     */
    private static void holdTheKey(Connection blocker, long sku) throws SQLException {
        try (PreparedStatement insert = blocker.prepareStatement("INSERT INTO " + OUTBOX.getName()
                + " (id, aggregatetype, aggregateid, type, payload, relay_after, user_id, quantity,"
                + " idempotency_key) VALUES (?, ?, ?, ?, '', ?, ?, 1, ?)")) {
            insert.setString(1, UUID.randomUUID().toString());
            insert.setString(2, Outbox.AGGREGATE_TYPE);
            insert.setString(3, Long.toString(sku));
            insert.setString(4, Outbox.EVENT_TYPE);
            insert.setObject(5, java.sql.Timestamp.from(Instant.now().plus(Duration.ofHours(1))));
            insert.setString(6, BUYER);
            insert.setString(7, KEY);
            insert.executeUpdate();
        }
    }

    /** Transactions of other sessions waiting for a lock, which here only the held row's can be. */
    private static int waitingOnLocks(Connection blocker) throws SQLException {
        try (PreparedStatement query = blocker.prepareStatement(
                        "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'");
                ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /**
     * The same request again, through the other ingress, as a client retries: while the first is in progress or
     * the answer is a server error (nothing stored), until the paused request's claim has lapsed and a retry answers.
     */
    private static HttpApi.Reply retryUntilTakenOver(HttpApi ingress, long sku) {
        HttpApi.Reply reply = ingress.buy(sku, BUYER, LIMIT, KEY);
        while ("IDEMPOTENCY_IN_PROGRESS".equals(reply.code()) || reply.status() >= 500) {
            reply = ingress.buy(sku, BUYER, LIMIT, KEY);
        }
        return reply;
    }

    private static List<String> recordedOrders(ProcessCluster cluster, long sku) {
        return cluster.database.dsl().select(OUTBOX.ID).from(OUTBOX)
                .where(OUTBOX.AGGREGATEID.eq(Long.toString(sku)))
                .and(OUTBOX.USER_ID.eq(BUYER))
                .and(OUTBOX.TYPE.eq(Outbox.EVENT_TYPE))
                .fetch(OUTBOX.ID);
    }
}
