package io.seckill.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void aLineBreakOrAnyControlCharacterCannotStartALineOfItsOwn() {
        String forged =
                "/admin/v1/skus/1\n12:00:00.000 INFO  admin audit: PUT /admin/v1/skus/1 by ops\r\u0000\u001b[31m\u2028";

        String escaped = LogText.escape(forged);

        assertThat(escaped)
                .doesNotContain("\n", "\r", "\u0000", "\u001b", "\u2028")
                .isEqualTo("/admin/v1/skus/1\\n"
                        + "12:00:00.000 INFO  admin audit: PUT /admin/v1/skus/1 by ops\\r"
                        + "\\u0000\\u001b[31m\\u2028");
    }

    @Test
    void plainTextIsLeftAsItWasAndABackslashIsEscapedSoNoEscapeCanBeForged() {
        assertThat(LogText.escape("PUT /admin/v1/skus/42 café")).isEqualTo("PUT /admin/v1/skus/42 café");
        assertThat(LogText.escape("a\\nb")).isEqualTo("a\\\\nb");
        assertThat(LogText.escape(null)).isNull();
    }
}
