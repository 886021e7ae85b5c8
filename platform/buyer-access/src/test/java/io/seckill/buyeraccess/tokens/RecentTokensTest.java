package io.seckill.buyeraccess.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentTokensTest {

    private static final Instant VERIFIED_AT = Instant.parse("2026-12-03T06:00:00Z");
    private static final Duration KEY_TRUST = Duration.ofMinutes(5);
    private static final Caller BOB = new Caller("bob", false);

    @Test
    void aTokenIsTrustedNoLongerThanItsKeyWouldBeEvenWhenItLivesLonger() {
        assertTrustedUntil(VERIFIED_AT.plus(Duration.ofHours(1)), VERIFIED_AT.plus(KEY_TRUST));
    }

    @Test
    void aTokenIsTrustedNoLongerThanItsOwnExpiry() {
        assertTrustedUntil(VERIFIED_AT.plus(Duration.ofMinutes(1)), VERIFIED_AT.plus(Duration.ofMinutes(1)));
    }

    /**
     * However long the tokens, an entry weighs its digest and subject: the bound in bytes holds the memory, not a
     * count.
     */
    @Test
    void theEntriesWeighNoMoreThanTheBoundHoweverLongTheTokens() {
        long bound = 64 * 1024;
        RecentTokens recent = new RecentTokens(bound, KEY_TRUST);
        String longToken = "x".repeat(4_000);
        for (int i = 0; i < 10_000; i++) {
            recent.remember(longToken + i, BOB, VERIFIED_AT, VERIFIED_AT.plus(KEY_TRUST));
        }
        assertThat(recent.weight()).isPositive().isLessThanOrEqualTo(bound);
        assertThat(recent.caller(longToken + 9_999, VERIFIED_AT)).as("the newest is kept").isEqualTo(BOB);
    }

    /**
     * A token expiring at {@code expiresAt}, verified at {@link #VERIFIED_AT}, is known through {@code last} and not a
     * millisecond later.
     */
    private static void assertTrustedUntil(Instant expiresAt, Instant last) {
        RecentTokens recent = new RecentTokens(1024 * 1024, KEY_TRUST);
        recent.remember("token", BOB, VERIFIED_AT, expiresAt);

        assertThat(recent.caller("token", last)).isEqualTo(BOB);
        assertThat(recent.caller("token", last.plusMillis(1))).isNull();
        assertThat(recent.caller("another token", VERIFIED_AT)).isNull();
    }
}
