package io.seckill.buyeraccess.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SalePassesTest {

    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private final SalePasses passes = new SalePasses(PassKey.derivedFrom("a-token-secret-of-at-least-32-bytes!"));

    @Test
    void aPassIsGoodForItsBuyerAndSaleUntilItExpires() {
        String pass = passes.issue("alice", 42, NOW.plusSeconds(60));
        assertThat(passes.shown(pass, "alice", 42, NOW)).isTrue();
        assertThat(passes.shown(null, "alice", 42, NOW)).as("none shown").isFalse();
        assertRefused(() -> passes.shown(pass, "bob", 42, NOW), "not issued to this buyer");
        assertRefused(() -> passes.shown(pass, "alice", 43, NOW), "for SKU 42");
        assertRefused(() -> passes.shown(pass, "alice", 42, NOW.plusSeconds(60)), "expired");
        assertRefused(
                () -> passes.shown(
                        pass.replace(
                                "." + NOW.plusSeconds(60).toEpochMilli() + ".",
                                "." + NOW.plusSeconds(3600).toEpochMilli() + "."),
                        "alice",
                        42,
                        NOW),
                "altered");
        assertRefused(() -> passes.shown("p1.42.notanumber.sig", "alice", 42, NOW), "not a sale pass");
        assertRefused(() -> passes.shown("x", "alice", 42, NOW), "not a sale pass");
    }

    @Test
    void aPassFromAnotherKeyIsRefused() {
        String foreign = new SalePasses(PassKey.of("another-deployments-pass-secret-32-bytes"))
                .issue("alice", 42, NOW.plusSeconds(60));
        assertRefused(() -> passes.shown(foreign, "alice", 42, NOW), "not issued to this buyer");
    }

    private static void assertRefused(Runnable check, String why) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(Problem.class, problem -> {
            assertThat(problem.code()).isEqualTo(ErrorCode.PASS_INVALID);
            assertThat(problem.getMessage()).contains(why);
        });
    }
}
