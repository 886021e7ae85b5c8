package io.seckill.ingress.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class BuyerTokenTest {

    private static final String SECRET = "a-test-secret-that-is-32-bytes-long";
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private final BuyerToken tokens = new BuyerToken(SECRET, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(30));

    @Test
    void aMintedTokenNamesItsUser() throws Exception {
        assertThat(tokens.verify(tokens.mint("alice@shop", NOW.plusSeconds(60)))).isEqualTo("alice@shop");
    }

    @Test
    void expiryToleratesTheConfiguredSkewAndNoMore() throws Exception {
        assertThat(tokens.verify(tokens.mint("bob", NOW.minusSeconds(29)))).isEqualTo("bob");
        assertThatThrownBy(() -> tokens.verify(tokens.mint("bob", NOW.minusSeconds(31))))
                .isInstanceOfSatisfying(BuyerToken.TokenException.class, e -> assertThat(e.expired()).isTrue());
    }

    @Test
    void aTamperedOrForeignTokenIsInvalidNotExpired() {
        String token = tokens.mint("carol", NOW.plusSeconds(60));
        String otherUser = token.replaceFirst("\\.[^.]+\\.", ".ZXZl.");
        String longerLife = token.replaceFirst("\\.(\\d+)\\.", "." + NOW.plusSeconds(99_999).getEpochSecond() + ".");
        String foreign = new BuyerToken("another-secret-that-is-32-bytes-long", Clock.systemUTC(), Duration.ZERO)
                .mint("carol", NOW.plusSeconds(60));
        for (String bad : new String[] {otherUser, longerLife, foreign, "v1.a.b", "v2" + token.substring(2), "v1.!!.1.x", ""}) {
            assertThatThrownBy(() -> tokens.verify(bad)).as(bad)
                    .isInstanceOfSatisfying(BuyerToken.TokenException.class, e -> assertThat(e.expired()).isFalse());
        }
    }

    @Test
    void anExpiryIsAsciiDigitsOnlyEvenUnderAValidSignature() throws Exception {
        long expiry = NOW.plusSeconds(60).getEpochSecond();
        String arabicIndic = Long.toString(expiry).chars().mapToObj(digit -> String.valueOf((char) ('\u0660' + digit - '0')))
                .reduce("", String::concat);
        for (String written : new String[] {"+" + expiry, arabicIndic, " " + expiry}) {
            String token = signed("v1." + Base64.getUrlEncoder().withoutPadding().encodeToString("dan".getBytes(StandardCharsets.UTF_8)) + "." + written);
            assertThatThrownBy(() -> tokens.verify(token)).as(written)
                    .isInstanceOfSatisfying(BuyerToken.TokenException.class, e -> assertThat(e.expired()).isFalse());
        }
        assertThat(tokens.verify(signed("v1.ZGFu." + expiry))).as("the same, written plainly").isEqualTo("dan");
    }

    /** {@code signedPart} with the MAC the secret gives it (over its ASCII bytes, as the ingress takes it), as only a holder of the secret could write it. */
    private static String signed(String signedPart) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return signedPart + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(signedPart.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void aShortSecretIsRefused() {
        assertThatThrownBy(() -> new BuyerToken("short", Clock.systemUTC(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
    }
}
