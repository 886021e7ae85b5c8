package io.seckill.buyeraccess.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's verdict over real HTTP, from a stand-in provider on loopback: a solved captcha earns the pass only
 * when it was solved on one of the shop's hostnames, for the shop's action.
 */
class CaptchaChallengesTest {

    private final AtomicReference<String> verdict = new AtomicReference<>();
    private HttpServer provider;

    @BeforeEach
    void startProvider() throws IOException {
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/siteverify", exchange -> {
            byte[] body = verdict.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        provider.start();
    }

    @AfterEach
    void stopProvider() {
        provider.stop(0);
    }

    @Test
    void aCaptchaSolvedOnTheShopsPageForItsActionEarnsThePass() {
        verdict.set("{\"success\":true,\"hostname\":\"shop.example\",\"action\":\"seckill-pass\"}");
        assertThatCode(() -> check(Set.of("shop.example", "m.shop.example"), "seckill-pass"))
                .doesNotThrowAnyException();
        assertThatCode(() -> check(Set.of(), null)).as("nothing named, nothing checked").doesNotThrowAnyException();
    }

    @Test
    void aCaptchaSolvedOnAnotherSiteOrForAnotherActionIsRefused() {
        verdict.set("{\"success\":true,\"hostname\":\"harvester.example\",\"action\":\"seckill-pass\"}");
        assertRefused(() -> check(Set.of("shop.example"), "seckill-pass"), "another site (harvester.example)");
        verdict.set("{\"success\":true,\"hostname\":\"shop.example\",\"action\":\"login\"}");
        assertRefused(() -> check(Set.of("shop.example"), "seckill-pass"), "another action");
        verdict.set("{\"success\":true}");
        assertRefused(() -> check(Set.of("shop.example"), null), "another site ()");
    }

    private void check(Set<String> hostnames, String action) {
        URI verifyUrl = URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/siteverify");
        new CaptchaChallenges(new PassSettings.Captcha(verifyUrl, "the-shops-secret", "site-key", hostnames, action))
                .check("buyer", 42, new PassRequest(null, null, "a-token"), "192.0.2.1", Instant.now());
    }

    private static void assertRefused(Runnable check, String why) {
        assertThatThrownBy(check::run)
                .isInstanceOfSatisfying(
                        Problem.class, problem -> assertThat(problem.code()).isEqualTo(ErrorCode.CHALLENGE_FAILED))
                .hasMessageContaining(why);
    }
}
