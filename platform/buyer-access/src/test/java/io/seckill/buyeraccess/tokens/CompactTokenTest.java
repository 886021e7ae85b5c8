package io.seckill.buyeraccess.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One spelling per token: the parser's leniency leaves nothing for a buyer to vary. */
class CompactTokenTest {

    private static final int MAX = TokenSettings.DEFAULT_MAX_BYTES;
    private static final String TOKEN =
            TokenMinter.development("a-secret-of-at-least-32-bytes-xxxxxxx").buyer("alice", Duration.ofMinutes(5));

    @Test
    void aMintedTokenIsCanonical() {
        assertThat(CompactToken.canonical(TOKEN, MAX)).isTrue();
    }

    @Test
    void everyOtherSpellingOfItIsNot() {
        String[] parts = TOKEN.split("\\.", -1);
        List<String> spellings = List.of(
                TOKEN + "$".repeat(7_000),
                TOKEN + "~",
                TOKEN + "=",
                TOKEN + " ",
                " " + TOKEN,
                TOKEN + ".",
                "." + TOKEN,
                parts[0] + ".." + parts[1] + "." + parts[2],
                parts[0] + "." + parts[1] + "." + parts[2] + "." + parts[2],
                parts[0] + "." + parts[1],
                parts[0] + "." + parts[1] + ".",
                parts[0] + "+" + "." + parts[1] + "." + parts[2],
                parts[0] + "." + parts[1] + "\n." + parts[2],
                parts[0] + "." + parts[1] + "." + parts[2].replace('-', '+').replace('_', '/') + "/");
        assertThat(spellings)
                .allSatisfy(spelling -> assertThat(CompactToken.canonical(spelling, MAX))
                        .as(spelling)
                        .isFalse());
    }

    /**
     * A 32-byte signature is 43 characters, its last one carrying 4 bits of data and 2 spare: any of the 4 characters
     * that differ only in the spare bits decodes to the same signature, and only the one with them zero is taken.
     */
    @Test
    void aLastCharacterWithStrayBitsIsNot() {
        String signature = TOKEN.substring(TOKEN.lastIndexOf('.') + 1);
        assertThat(signature).hasSize(43);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int last = alphabet.indexOf(signature.charAt(42));
        String body = TOKEN.substring(0, TOKEN.length() - 1);
        for (int spare = 1; spare < 4; spare++) {
            assertThat(CompactToken.canonical(body + alphabet.charAt(last | spare), MAX)).isFalse();
        }
        assertThat(CompactToken.canonical("eyJhbGciOiJIUzI1NiJ9.e30.AB", MAX))
                .as("2 characters: 4 spare bits")
                .isFalse();
        assertThat(CompactToken.canonical("eyJhbGciOiJIUzI1NiJ9.e30.AA", MAX)).isTrue();
        assertThat(CompactToken.canonical("eyJhbGciOiJIUzI1NiJ9.e30.AAAAA", MAX))
                .as("5 characters end no byte")
                .isFalse();
    }

    @Test
    void aTokenLongerThanTheBoundIsNot() {
        assertThat(CompactToken.canonical(TOKEN, TOKEN.length())).isTrue();
        assertThat(CompactToken.canonical(TOKEN, TOKEN.length() - 1)).isFalse();
    }
}
