package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log format: text unless json is asked for, and nothing else (it names the logback file that is included). */
class LogFormatTest {

    @Test
    void textUnlessJsonIsAskedForAndNothingElse() {
        assertThat(LogFormat.of(new Env(Map.of()))).isEqualTo(LogFormat.TEXT);
        assertThat(LogFormat.of(new Env(Map.of(LogFormat.SETTING, "json")))).isEqualTo(LogFormat.JSON);
        assertThatThrownBy(() -> LogFormat.of(new Env(Map.of(LogFormat.SETTING, "../secrets"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(LogFormat.SETTING);
    }
}
