package io.seckill.ingress.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.runtime.Concurrently;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenRefusalsTest {

    private static final Duration WINDOW = Duration.ofSeconds(1);
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final TokenRefusals refusals = new TokenRefusals(4, WINDOW, now::get);

    @Test
    void anAddressIsReadUntilItsBudgetOfRefusalsIsSpentThenNotUntilOneDrains() {
        for (int i = 0; i < 4; i++) {
            assertThat(refusals.wait("203.0.113.7")).as("refusal " + i).isZero();
            refusals.refused("203.0.113.7");
        }
        assertThat(refusals.wait("203.0.113.7")).isEqualTo(Duration.ofMillis(250));
        assertThat(refusals.wait("198.51.100.1")).as("another address").isZero();

        now.addAndGet(Duration.ofMillis(249).toNanos());
        assertThat(refusals.wait("203.0.113.7")).isEqualTo(Duration.ofMillis(1));
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(refusals.wait("203.0.113.7")).as("a quarter window later, one refusal has drained").isZero();
        refusals.refused("203.0.113.7");
        assertThat(refusals.wait("203.0.113.7")).isPositive();
    }

    /**
     * A crowd behind one address reads any number of valid tokens at once, beside a few refused ones: only the refusals
     * spend the budget, so the crowd is never held back and the budget has exactly what the refusals left.
     */
    @Test
    void validTokensReadAtOnceNeverSpendTheBudget() throws Exception {
        TokenRefusals shared = new TokenRefusals(20, Duration.ofHours(1), System::nanoTime);
        AtomicInteger refusers = new AtomicInteger();

        List<Boolean> read = Concurrently.run(64, () -> {
            if (refusers.incrementAndGet() <= 19) {
                shared.refused("203.0.113.9");
            }
            boolean all = true;
            for (int token = 0; token < 100; token++) {
                all &= shared.wait("203.0.113.9").isZero();
            }
            return all;
        });

        assertThat(read).as("6,400 valid reads beside 19 refusals").containsOnly(true);
        assertThat(shared.wait("203.0.113.9")).as("the budget's last refusal is still there").isZero();
        shared.refused("203.0.113.9");
        assertThat(shared.wait("203.0.113.9")).as("and then it is spent").isPositive();
    }

    /**
     * Forged tokens sent at once are read while the budget has room, each refusal counted after its read: at most one
     * read past the budget per request in flight, then none.
     */
    @Test
    void forgedTokensAtOnceAreReadAtMostTheirConcurrencyPastTheBudget() throws Exception {
        TokenRefusals shared = new TokenRefusals(20, Duration.ofHours(1), System::nanoTime);
        int connections = 8;

        List<Integer> readByConnection = Concurrently.run(connections, () -> {
            int read = 0;
            for (int token = 0; token < 25; token++) {
                if (shared.wait("203.0.113.9").isZero()) {
                    read++;
                    shared.refused("203.0.113.9");
                }
            }
            return read;
        });

        int read = readByConnection.stream().mapToInt(Integer::intValue).sum();
        assertThat(read).isBetween(20, 20 + connections - 1);
        assertThat(shared.wait("203.0.113.9")).as("once they are counted").isPositive();
    }

    @Test
    void aBudgetOfZeroCountsNothing() {
        TokenRefusals off = new TokenRefusals(0, WINDOW, now::get);
        for (int i = 0; i < 100; i++) {
            off.refused("203.0.113.7");
            assertThat(off.wait("203.0.113.7")).isZero();
        }
    }
}
