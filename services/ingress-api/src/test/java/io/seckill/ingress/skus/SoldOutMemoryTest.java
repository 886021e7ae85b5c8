package io.seckill.ingress.skus;


import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.http.Reply;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SoldOutMemoryTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final SoldOutMemory memory = new SoldOutMemory(Duration.ofMillis(500), now::get);
    private final Reply soldOut =
            Reply.problem(new Problem(ErrorCode.SOLD_OUT, "SKU 7 is sold out"), "/api/v1/skus/7/orders");

    @Test
    void aSoldOutSkuIsRememberedForItsTimeThenAskedAgain() {
        memory.remember(7, soldOut);
        now.addAndGet(Duration.ofMillis(499).toNanos());
        assertThat(memory.answerFor(7)).isSameAs(soldOut);
        assertThat(memory.answerFor(8)).isNull();

        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(memory.answerFor(7)).isNull();
    }

    @Test
    void stockReleasedHereIsSoldAtOnce() {
        memory.remember(7, soldOut);
        memory.forget(7);
        assertThat(memory.answerFor(7)).isNull();
    }

    @Test
    void aZeroMemoryRemembersNothing() {
        SoldOutMemory off = new SoldOutMemory(Duration.ZERO, now::get);
        off.remember(7, soldOut);
        assertThat(off.answerFor(7)).isNull();
    }
}
