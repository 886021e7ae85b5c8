package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redisstate.IdempotencyClaims.Claim;
import io.seckill.redisstate.IdempotencyClaims.ClaimState;
import io.seckill.redisstate.IdempotencyClaims.StoredReply;
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
        statuses.putAll(List.of(OrderView.pending(orderId, 7, "ivy", 2)));
        assertThat(statuses.get(orderId)).contains(new OrderView(orderId, 7, "ivy", 2, OrderStatus.PENDING, null));

        statuses.decide(orderId, OrderStatus.REJECTED, RejectReason.DEAD_LETTERED);
        assertThat(statuses.get(orderId)).contains(new OrderView(orderId, 7, "ivy", 2, OrderStatus.REJECTED, RejectReason.DEAD_LETTERED));
        assertThat(RedisFixture.REDIS.pttl(GlobalKeys.orderStatus(orderId))).isBetween(1L, Duration.ofMinutes(5).toMillis());

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
        assertThat(claims.claim("jon", key, "fingerprint-a").state()).isEqualTo(ClaimState.CLAIMED);
        assertThat(claims.claim("jon", key, "fingerprint-a").state()).isEqualTo(ClaimState.IN_PROGRESS);
        assertThat(claims.claim("jon", key, "fingerprint-b").state()).isEqualTo(ClaimState.MISMATCH);
        assertThat(claims.claim("kim", key, "fingerprint-b").state()).as("another buyer's key").isEqualTo(ClaimState.CLAIMED);

        StoredReply reply = new StoredReply(202, "application/json", "{\"orderId\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                "/api/v1/orders/x", null);
        claims.complete("jon", key, reply);
        Claim done = claims.claim("jon", key, "fingerprint-a");
        assertThat(done.state()).isEqualTo(ClaimState.DONE);
        assertThat(done.reply().status()).isEqualTo(202);
        assertThat(done.reply().body()).isEqualTo(reply.body());
        assertThat(done.reply().location()).isEqualTo("/api/v1/orders/x");
        assertThat(done.reply().code()).isNull();
    }

    @Test
    void anAbandonedClaimCanBeClaimedAgain() {
        IdempotencyClaims claims = new IdempotencyClaims(lua, Duration.ofMinutes(5), Duration.ofSeconds(30));
        String key = UUID.randomUUID().toString();
        claims.claim("lea", key, "f");
        claims.abandon("lea", key);
        assertThat(claims.claim("lea", key, "f").state()).isEqualTo(ClaimState.CLAIMED);
    }

    @Test
    void rateCountsAdmitUpToTheLimitPerBuyerAndPerAddress() {
        RateLimitCounters counters = new RateLimitCounters(lua);
        String user = "rate-" + UUID.randomUUID();
        String address = "10.0.0." + (System.nanoTime() % 250);
        long now = System.currentTimeMillis();
        Duration window = Duration.ofMinutes(1);
        assertThat(counters.admit(user, address, now, window, 2, 0)).isZero();
        assertThat(counters.admit(user, address, now + 1, window, 2, 0)).isZero();
        assertThat(counters.admit(user, address, now + 2, window, 2, 0)).isBetween(1L, window.toMillis());
        assertThat(counters.admit(user, address, now + window.toMillis() + 1, window, 2, 0)).as("the window slid").isZero();
    }
}
