package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PerMinuteSampleTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final PerMinuteSample sample = new PerMinuteSample("test events", 3, now::get);

    @Test
    void theFirstOfEachKindInAMinuteAreKeptAndTheRestLetGoUntilTheNextMinute() {
        assertThat(IntStream.range(0, 10).mapToObj(_ -> sample.keep("forged order-requests")))
                .containsExactly(true, true, true, false, false, false, false, false, false, false);
        assertThat(sample.keep("another kind")).isTrue();

        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(sample.keep("forged order-requests")).isFalse();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(IntStream.range(0, 4).mapToObj(_ -> sample.keep("forged order-requests")))
                .containsExactly(true, true, true, false);
    }
}
