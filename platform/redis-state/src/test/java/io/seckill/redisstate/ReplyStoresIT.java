package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redisstate.IdempotencyClaims.Claim;
import io.seckill.redisstate.IdempotencyClaims.ClaimState;
import io.seckill.redisstate.IdempotencyClaims.StoredReply;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the ingress and the reconciler keep for buyers in Redis: order statuses, idempotency claims, rate counts. */
class ReplyStoresIT {

    private final LuaRunner lua = new LuaRunner(RedisFixture.REDIS);

    @Test
    void anOrderStatusIsWrittenPendingThenDecidedAndReadBackTyped() {
        OrderStatusStore statuses = new OrderStatusStore(lua, Duration.ofMinutes(5));
        String orderId = UUID.randomUUID().toString();
        statuses.putAll(List.of(OrderView.pending(new OrderFacts(orderId, 7, "ivy", 2))));
        assertThat(statuses.get(orderId))
                .contains(new OrderView(new OrderFacts(orderId, 7, "ivy", 2), OrderStatus.PENDING, null));

        statuses.decide(orderId, OrderStatus.REJECTED, RejectReason.DEAD_LETTERED);
        assertThat(statuses.get(orderId))
                .contains(new OrderView(
                        new OrderFacts(orderId, 7, "ivy", 2), OrderStatus.REJECTED, RejectReason.DEAD_LETTERED));
        assertThat(RedisFixture.REDIS.pttl(GlobalKeys.orderStatus(orderId)))
                .isBetween(1L, Duration.ofMinutes(5).toMillis());

        statuses.delete(orderId);
        assertThat(statuses.get(orderId)).isEmpty();
    }

    @Test
    void aDecisionAloneDoesNotMakeAnOrderVisible() {
        OrderStatusStore statuses = new OrderStatusStore(lua, Duration.ofMinutes(5));
        String orderId = UUID.randomUUID().toString();
        statuses.decide(orderId, OrderStatus.CONFIRMED, null);
        assertThat(statuses.get(orderId)).isEmpty();
    }

    @Test
    void anIdempotencyKeyIsClaimedOnceAndThenTellsWhatBecameOfTheRequest() {
        IdempotencyClaims claims = new IdempotencyClaims(lua, Duration.ofMinutes(5), Duration.ofSeconds(30));
        String key = UUID.randomUUID().toString();
        assertThat(claims.claim("jon", key, "fingerprint-a", "first").state()).isEqualTo(ClaimState.CLAIMED);
        assertThat(claims.claim("jon", key, "fingerprint-a", "retry").state()).isEqualTo(ClaimState.IN_PROGRESS);
        assertThat(claims.claim("jon", key, "fingerprint-b", "other").state()).isEqualTo(ClaimState.MISMATCH);
        assertThat(claims.claim("kim", key, "fingerprint-b", "kims").state())
                .as("another buyer's key")
                .isEqualTo(ClaimState.CLAIMED);

        StoredReply reply = new StoredReply(
                202,
                "application/json",
                "{\"orderId\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                "/api/v1/orders/x",
                null);
        assertThat(claims.complete("jon", key, "first", reply)).isTrue();
        Claim done = claims.claim("jon", key, "fingerprint-a", "retry");
        assertThat(done.state()).isEqualTo(ClaimState.DONE);
        assertThat(done.reply().status()).isEqualTo(202);
        assertThat(done.reply().body()).isEqualTo(reply.body());
        assertThat(done.reply().location()).isEqualTo("/api/v1/orders/x");
        assertThat(done.reply().code()).isNull();
        assertThat(RedisFixture.REDIS.pttl(GlobalKeys.idempotency("jon", key)))
                .isBetween(1L, Duration.ofMinutes(5).toMillis());
    }

    @Test
    void anAbandonedClaimCanBeClaimedAgain() {
        IdempotencyClaims claims = new IdempotencyClaims(lua, Duration.ofMinutes(5), Duration.ofSeconds(30));
        String key = UUID.randomUUID().toString();
        claims.claim("lea", key, "f", "first");
        claims.abandon("lea", key, "first");
        assertThat(claims.claim("lea", key, "f", "retry").state()).isEqualTo(ClaimState.CLAIMED);
    }

    @Test
    void aLapsedClaimIsTakenOverAndItsFirstHolderCanNeitherAnswerNorFreeTheKey() {
        Duration lease = Duration.ofMillis(200);
        IdempotencyClaims claims = new IdempotencyClaims(lua, Duration.ofMinutes(5), lease);
        String key = UUID.randomUUID().toString();
        assertThat(claims.claim("max", key, "f", "paused").state()).isEqualTo(ClaimState.CLAIMED);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> claims.claim("max", key, "f", "retry").state() == ClaimState.TAKEN_OVER);
        assertThat(RedisFixture.REDIS.pttl(GlobalKeys.idempotency("max", key)))
                .as("the claim's record outlives its lease")
                .isGreaterThan(lease.toMillis());

        StoredReply refused = new StoredReply(
                409, "application/problem+json", "{}".getBytes(StandardCharsets.UTF_8), null, "SOLD_OUT");
        StoredReply late = new StoredReply(
                202, "application/json", "{}".getBytes(StandardCharsets.UTF_8), "/api/v1/orders/y", null);
        claims.abandon("max", key, "paused");
        assertThat(claims.complete("max", key, "paused", late)).as("the paused request lost the key").isFalse();
        assertThat(claims.complete("max", key, "retry", refused)).isTrue();
        Claim done = claims.claim("max", key, "f", "third");
        assertThat(done.state()).isEqualTo(ClaimState.DONE);
        assertThat(done.reply().status()).isEqualTo(409);
    }

    @Test
    void rateCountsAdmitUpToTheLimitPerBuyerAndPerAddress() {
        RateLimitCounters counters = new RateLimitCounters(lua);
        String user = "rate-" + UUID.randomUUID();
        String address = "10.0.0." + (System.nanoTime() % 250);
        Duration window = Duration.ofMinutes(1);
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, address, window, 2, 0)).isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, address, window, 2, 0)).isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, address, window, 2, 0))
                .as("one cell frees every window / limit")
                .isBetween(window.toMillis() / 2 - 1_000, window.toMillis() / 2);
        assertThat(counters.admit(RateLimitCounters.Scope.ORDERS, user, address, window, 2, 0))
                .as("each scope counts apart")
                .isZero();
    }

    @Test
    void aCellFreesUpEveryWindowOverTheLimit() {
        RateLimitCounters counters = new RateLimitCounters(lua);
        String user = "steady-" + UUID.randomUUID();
        Duration window = Duration.ofMillis(600);
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.1.1", window, 3, 0)).isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.1.1", window, 3, 0)).isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.1.1", window, 3, 0)).isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.1.1", window, 3, 0)).isBetween(1L, 200L);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.1.1", window, 3, 0) == 0);
    }

    /** A request the address refuses costs the buyer nothing, and one the buyer refuses costs the address nothing. */
    @Test
    void aRequestCountsAgainstBothSidesOnlyWhenBothAdmitIt() {
        RateLimitCounters counters = new RateLimitCounters(lua);
        Duration window = Duration.ofMinutes(10);
        String crowded = "10.0.2." + (System.nanoTime() % 250);
        String buyer = "quiet-" + UUID.randomUUID();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, "other-" + UUID.randomUUID(), crowded, window, 1, 1))
                .isZero();
        for (int i = 0; i < 3; i++) {
            assertThat(counters.admit(RateLimitCounters.Scope.BUY, buyer, crowded, window, 1, 1))
                    .as("the address is full")
                    .isPositive();
        }
        String calm = "10.0.3." + (System.nanoTime() % 250);
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, buyer, calm, window, 1, 1))
                .as("the buyer's one cell is still free")
                .isZero();
        assertThat(counters.admit(RateLimitCounters.Scope.BUY, buyer, "10.0.4.1", window, 1, 1))
                .as("now it is taken")
                .isPositive();
        assertThat(counters.admit(
                        RateLimitCounters.Scope.BUY, "another-" + UUID.randomUUID(), "10.0.4.1", window, 1, 1))
                .as("the address the full buyer came from was given its cell back")
                .isZero();
    }

    /**
     * One counter is one small string key, whatever the limit: what GCRA costs where a sorted set held each request.
     */
    @Test
    void aCounterIsOneSmallKeyWhateverTheLimit() {
        RateLimitCounters counters = new RateLimitCounters(lua);
        String user = "memory-" + UUID.randomUUID();
        for (int i = 0; i < 50; i++) {
            counters.admit(RateLimitCounters.Scope.BUY, user, "10.0.5.1", Duration.ofMinutes(1), 100, 0);
        }
        String key = GlobalKeys.userRate("buy", user);
        assertThat(RedisFixture.REDIS.type(key)).isEqualTo("string");
        assertThat(RedisFixture.REDIS.memoryUsage(key)).isLessThan(128L);
    }
}
