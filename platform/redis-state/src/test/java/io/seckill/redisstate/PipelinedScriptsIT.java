package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redisstate.SaleStore.Reservation;
import io.seckill.redisstate.SaleStore.ReserveOutcome;
import io.seckill.runtime.Concurrently;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;

/** The ingress's coalescing script runner, on real Redis: every racing caller gets its own reply. */
class PipelinedScriptsIT {

    private final SaleStore saleStore = new SaleStore(new LuaRunner(RedisFixture.REDIS));

    @Test
    void racingReservationsEachGetTheirOwnAnswerAndStockIsExact() throws Exception {
        long sku = RedisFixture.newSkuId();
        long now = System.currentTimeMillis();
        saleStore.loadSale(sku, 100, 1, 1, now - 60_000, now + 60_000, 1, false);
        AtomicInteger buyers = new AtomicInteger();
        try (LuaRunner lua = LuaRunner.pipelined(RedisFixture.REDIS, 2)) {
            SaleStore store = new SaleStore(lua);

            List<ReserveOutcome> outcomes = Concurrently.run(64, () -> {
                int buyer = buyers.incrementAndGet();
                return store.reserve(sku, "pipelined-order-" + sku + "-" + buyer, "pipelined-" + buyer, 1, now, false);
            });

            // Each reply went back to the caller whose call it was: 64 distinct "stock left" figures.
            assertThat(outcomes)
                    .allSatisfy(outcome -> assertThat(outcome.reservation()).isEqualTo(Reservation.RESERVED));
            Set<Long> left = outcomes.stream().map(ReserveOutcome::value).collect(Collectors.toSet());
            assertThat(left).isEqualTo(LongStream.range(36, 100).boxed().collect(Collectors.toSet()));
            assertThat(saleStore.state(sku)).isEqualTo(new SaleStore.RedisSkuState(36, 64));
        }
    }

    @Test
    void aFailingCallFailsAloneAndAServerThatForgotItsScriptsIsSentTheSource() throws Exception {
        long sku = RedisFixture.newSkuId();
        long now = System.currentTimeMillis();
        saleStore.loadSale(sku, 10, 1, 1, now - 60_000, now + 60_000, 1, false);
        RedisFixture.REDIS.scriptFlush();
        AtomicInteger callers = new AtomicInteger();
        try (LuaRunner lua = LuaRunner.pipelined(RedisFixture.REDIS, 1)) {
            // Every other caller sends a quantity the script cannot read, which is a Lua error reply;
            // each caller checks that it got the reply its own call deserved.
            List<Boolean> gotTheirOwnReply = Concurrently.run(8, () -> {
                int caller = callers.incrementAndGet();
                boolean valid = caller % 2 == 0;
                try {
                    List<?> reply = (List<?>) lua.run(
                            LuaScript.RESERVE,
                            new SkuKeys(sku).scriptKeys(),
                            List.of(
                                    "flushed-" + sku + "-" + caller,
                                    "flushed-" + caller,
                                    valid ? "1" : "not a number",
                                    Long.toString(now)));
                    return valid && "RESERVED".equals(reply.get(0));
                } catch (JedisDataException e) {
                    return !valid;
                }
            });

            assertThat(gotTheirOwnReply).containsOnly(true).hasSize(8);
            assertThat(saleStore.state(sku)).isEqualTo(new SaleStore.RedisSkuState(6, 4));
        }
    }
}
