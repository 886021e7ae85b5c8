package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redisstate.EvictionPolicy.Verdict;
import org.junit.jupiter.api.Test;

class EvictionPolicyTest {

    private static final long ONE_GB = 1L << 30;

    @Test
    void onlyAPolicyThatEvictsKeysWithALifetimeAloneIsSafe() {
        assertThat(EvictionPolicy.of(ONE_GB, "volatile-lru")).isEqualTo(Verdict.SAFE);
        assertThat(EvictionPolicy.of(ONE_GB, "volatile-ttl")).isEqualTo(Verdict.SAFE);
        assertThat(EvictionPolicy.of(ONE_GB, "noeviction")).isEqualTo(Verdict.REFUSES_WRITES_WHEN_FULL);
        assertThat(EvictionPolicy.of(0, "volatile-lru")).isEqualTo(Verdict.UNBOUNDED);
        assertThat(EvictionPolicy.of(0, "noeviction")).isEqualTo(Verdict.UNBOUNDED);
        assertThat(EvictionPolicy.of(ONE_GB, "allkeys-lru")).isEqualTo(Verdict.DROPS_SALE_STATE);
        assertThat(EvictionPolicy.of(0, "ALLKEYS-RANDOM"))
                .as("unbounded today, a limit set at runtime would evict stock")
                .isEqualTo(Verdict.DROPS_SALE_STATE);
    }
}
