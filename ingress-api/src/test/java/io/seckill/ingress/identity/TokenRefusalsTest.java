package io.seckill.ingress.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenRefusalsTest {

    private static final Duration WINDOW = Duration.ofSeconds(1);
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final TokenRefusals refusals = new TokenRefusals(4, WINDOW, now::get);

    @Test
    void anAddressIsReadUntilItsBudgetOfRefusalsIsSpentThenNotUntilOneDrains() {
        for (int i = 0; i < 4; i++) {
            assertThat(refusals.waitOf("203.0.113.7")).as("refusal " + i).isZero();
            refusals.refused("203.0.113.7");
        }
        assertThat(refusals.waitOf("203.0.113.7")).isEqualTo(Duration.ofMillis(250));
        assertThat(refusals.waitOf("198.51.100.1")).as("another address").isZero();

        now.addAndGet(Duration.ofMillis(249).toNanos());
        assertThat(refusals.waitOf("203.0.113.7")).isEqualTo(Duration.ofMillis(1));
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(refusals.waitOf("203.0.113.7")).as("a quarter window later, one refusal has drained").isZero();
        refusals.refused("203.0.113.7");
        assertThat(refusals.waitOf("203.0.113.7")).isPositive();
    }

    @Test
    void aBudgetOfZeroCountsNothing() {
        TokenRefusals off = new TokenRefusals(0, WINDOW, now::get);
        for (int i = 0; i < 100; i++) {
            off.refused("203.0.113.7");
        }
        assertThat(off.waitOf("203.0.113.7")).isZero();
    }
}
