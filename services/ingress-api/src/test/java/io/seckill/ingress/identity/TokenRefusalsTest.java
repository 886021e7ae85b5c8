package io.seckill.ingress.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TokenRefusalsTest {

    private static final Duration WINDOW = Duration.ofSeconds(1);
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final TokenRefusals refusals = new TokenRefusals(4, WINDOW, now::get);

    @Test
    void anAddressIsReadUntilItsBudgetOfRefusalsIsSpentThenNotUntilOneDrains() {
        for (int i = 0; i < 4; i++) {
            assertThat(refusals.take("203.0.113.7")).as("refusal " + i).isZero();
        }
        assertThat(refusals.take("203.0.113.7")).isEqualTo(Duration.ofMillis(250));
        assertThat(refusals.take("198.51.100.1")).as("another address").isZero();

        now.addAndGet(Duration.ofMillis(249).toNanos());
        assertThat(refusals.take("203.0.113.7")).isEqualTo(Duration.ofMillis(1));
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(refusals.take("203.0.113.7")).as("a quarter window later, one refusal has drained").isZero();
        assertThat(refusals.take("203.0.113.7")).isPositive();
    }

    @Test
    void validTokensGiveTheirCellBackAndNeverSpendTheBudget() {
        for (int i = 0; i < 100; i++) {
            assertThat(refusals.take("198.51.100.1")).isZero();
            refusals.valid("198.51.100.1");
        }
        assertThat(IntStream.range(0, 5)
                        .mapToObj(_ -> refusals.take("198.51.100.1").isZero()))
                .containsExactly(true, true, true, true, false);
    }

    /** Taken atomically: tokens read at once from one address cannot together pass the budget. */
    @Test
    void concurrentTakesNeverExceedTheBudget() throws Exception {
        TokenRefusals shared = new TokenRefusals(20, Duration.ofHours(1), System::nanoTime);
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<Boolean>> taken = threads.invokeAll(IntStream.range(0, 200)
                    .mapToObj(_ -> (Callable<Boolean>) () -> shared.take("203.0.113.9").isZero()).toList());
            long read = 0;
            for (Future<Boolean> one : taken) {
                read += one.get() ? 1 : 0;
            }
            assertThat(read).isEqualTo(20);
        }
    }

    @Test
    void aBudgetOfZeroCountsNothing() {
        TokenRefusals off = new TokenRefusals(0, WINDOW, now::get);
        for (int i = 0; i < 100; i++) {
            assertThat(off.take("203.0.113.7")).isZero();
        }
    }
}
