package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvTest {

    private final Env env = new Env(Map.of("SECKILL_A", " 42 ", "SECKILL_BLANK", "  ", "SECKILL_BAD", "4x2"));

    @Test
    void valuesAreTrimmedAndBlankMeansUnset() {
        assertThat(env.integer("SECKILL_A", 7)).isEqualTo(42);
        assertThat(env.string("SECKILL_BLANK", "default")).isEqualTo("default");
        assertThat(env.millis("SECKILL_UNSET", Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(3));
        assertThat(env.millis("SECKILL_A", Duration.ZERO)).isEqualTo(Duration.ofMillis(42));
    }

    @Test
    void aMalformedNumberFailsNamingTheVariable() {
        assertThatThrownBy(() -> env.integer("SECKILL_BAD", 1))
                .hasMessageContaining("SECKILL_BAD")
                .hasMessageContaining("4x2");
        assertThatThrownBy(() -> env.millis("SECKILL_BAD", Duration.ZERO)).hasMessageContaining("SECKILL_BAD");
    }

    @Test
    void aDefaultOnlyFillsWhatIsUnset() {
        assertThat(env.withDefault("SECKILL_A", "1").integer("SECKILL_A", 0)).isEqualTo(42);
        assertThat(env.withDefault("SECKILL_NEW", "5").integer("SECKILL_NEW", 0)).isEqualTo(5);
        assertThat(env.withDefault("SECKILL_BLANK", "6").integer("SECKILL_BLANK", 0)).isEqualTo(6);
    }
}
