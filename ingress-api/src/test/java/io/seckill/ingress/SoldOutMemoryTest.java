package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SoldOutMemoryTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final SoldOutMemory memory = new SoldOutMemory(Duration.ofMillis(500), now::get);

    @Test
    void aSoldOutSkuIsRememberedForItsTimeThenAskedAgain() {
        memory.remember(7);
        now.addAndGet(Duration.ofMillis(499).toNanos());
        assertThat(memory.isSoldOut(7)).isTrue();
        assertThat(memory.isSoldOut(8)).isFalse();

        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(memory.isSoldOut(7)).isFalse();
    }

    @Test
    void stockReleasedHereIsSoldAtOnce() {
        memory.remember(7);
        memory.forget(7);
        assertThat(memory.isSoldOut(7)).isFalse();
    }

    @Test
    void aZeroMemoryRemembersNothing() {
        SoldOutMemory off = new SoldOutMemory(Duration.ZERO, now::get);
        off.remember(7);
        assertThat(off.isSoldOut(7)).isFalse();
    }
}
