package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;

/** What every page answer tells a browser: only its own scripts run, no page frames it, nothing sniffs it. */
final class PageHeadersAssert {

    private PageHeadersAssert() {
    }

    /** @param what the answer, as a failure names it */
    static void assertPageHeaders(HttpHeaders headers, String what) {
        assertThat(headers.firstValue("Content-Security-Policy"))
                .as(what)
                .hasValueSatisfying(policy -> assertThat(policy)
                        .contains("default-src 'self'", "frame-ancestors 'none'", "object-src 'none'"));
        assertThat(headers.firstValue("X-Frame-Options")).as(what).contains("DENY");
        assertThat(headers.firstValue("X-Content-Type-Options")).as(what).contains("nosniff");
    }
}
