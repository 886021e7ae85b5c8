package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redisstate.RateLimitCounters.Scope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * On a Redis Cluster of three primaries: no rate-limit key is touched by every request, and the two sides still decide
 * together.
 */
class RateLimitClusterIT {

    private final LuaRunner lua = LuaRunner.pipelined(RedisFixture.REDIS, 2);
    private final RateLimitCounters counters = new RateLimitCounters(lua);

    @Test
    void manyBuyersCountersSpreadOverEveryPrimary() {
        List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(RedisFixture.REDIS);
        assertThat(primaries).hasSize(3);
        String run = UUID.randomUUID().toString();
        List<String> counterKeys = IntStream.range(0, 300)
                .mapToObj(n -> GlobalKeys.userRate(Scope.BUY.keyPart(), run + "-" + n))
                .toList();
        IntStream.range(0, 300)
                .forEach(n -> assertThat(counters.admit(
                                Scope.BUY, run + "-" + n, "10.1.0." + (n % 200), Duration.ofMinutes(1), 5, 50))
                        .isZero());

        Map<String, Long> perPrimary = counterKeys.stream()
                .collect(Collectors.groupingBy(key -> primaryOf(primaries, key), Collectors.counting()));
        assertThat(counterKeys).allSatisfy(key -> assertThat(RedisFixture.REDIS.exists(key)).isTrue());
        assertThat(perPrimary).as("buyers' counters per primary").hasSize(3)
                .allSatisfy((primary, count) -> assertThat(count).isBetween(60L, 140L));
    }

    /**
     * A buyer and an address whose counters live on two primaries: refused by one side, the other side's cell is given
     * back.
     */
    @Test
    void aBuyerAndAnAddressOnTwoPrimariesDecideTogether() {
        List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(RedisFixture.REDIS);
        String buyer = "split-" + UUID.randomUUID();
        String buyerPrimary = primaryOf(primaries, GlobalKeys.userRate(Scope.BUY.keyPart(), buyer));
        Function<Integer, String> address = n -> "10.2." + (n / 250) + "." + (n % 250);
        String crowded = IntStream.range(0, 1_000)
                .mapToObj(address::apply)
                .filter(candidate -> !primaryOf(primaries, GlobalKeys.addressRate(Scope.BUY.keyPart(), candidate))
                        .equals(buyerPrimary))
                .findFirst()
                .orElseThrow();
        Duration window = Duration.ofMinutes(10);

        assertThat(counters.admit(Scope.BUY, "first-" + UUID.randomUUID(), crowded, window, 1, 1)).isZero();
        assertThat(counters.admit(Scope.BUY, buyer, crowded, window, 1, 1)).as("the address is full").isPositive();
        assertThat(counters.admit(Scope.BUY, buyer, address.apply(1_001), window, 1, 1))
                .as("the buyer's cell was given back")
                .isZero();
        assertThat(counters.admit(Scope.BUY, buyer, address.apply(1_002), window, 1, 1)).isPositive();
    }

    private static String primaryOf(List<RedisPrimaries.Primary> primaries, String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        return primaries.stream().filter(primary -> primary.servesSlot(slot)).findFirst().orElseThrow().address();
    }
}
