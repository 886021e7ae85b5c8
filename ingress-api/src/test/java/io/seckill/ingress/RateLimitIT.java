package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.runtime.Concurrently;
import io.seckill.ingress.http.TrustedProxies;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * N+k concurrent requests inside one window give exactly k 429s, per buyer and
 * per client address, and a limited request never touches stock.
 */
class RateLimitIT {

    private static final int LIMIT = 5;
    private static final int EXTRA = 7;
    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aBuyerGetsExactlyTheExcessRefused() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        try (ManagedIngress limited = fixture.start(withinOneWindow(LIMIT, 0))) {
            HttpApi http = limited.http();
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> http.buy(sku, "bot", 1));

            List<HttpApi.Reply> limitedReplies = replies.stream().filter(reply -> reply.status() == 429).toList();
            assertThat(limitedReplies).hasSize(EXTRA).allSatisfy(reply -> {
                assertThat(reply.code()).isEqualTo("RATE_LIMITED");
                assertThat(Integer.parseInt(reply.retryAfter())).isPositive();
            });
            assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(1);
            assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(99);
        }
    }

    @Test
    void anAddressGetsExactlyTheExcessRefusedWhoeverBuys() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        AtomicInteger users = new AtomicInteger();
        try (ManagedIngress limited = fixture.start(withinOneWindow(0, LIMIT))) {
            HttpApi http = limited.http();
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> http.buy(sku, "crowd-" + users.incrementAndGet(), 1));

            assertThat(replies.stream().filter(reply -> reply.status() == 429)).hasSize(EXTRA);
            assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(LIMIT);
            assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(100 - LIMIT);
        }
    }

    @Test
    void aForgedForwardedForFromAPeerThatIsNoTrustedProxyDoesNotMoveTheAddressLimit() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        AtomicInteger users = new AtomicInteger();
        try (ManagedIngress limited = fixture.start(withinOneWindow(0, LIMIT))) {
            HttpApi http = limited.http();
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> {
                int user = users.incrementAndGet();
                return http.buyForwardedFor(sku, "forger-" + user, 1, "203.0.113." + user);
            });

            assertThat(replies.stream().filter(reply -> reply.status() == 429)).as("one address, whatever it claims").hasSize(EXTRA);
            assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(100 - LIMIT);
        }
    }

    @Test
    void behindATrustedProxyTheAddressIsTheRightmostOneTheProxyWrote() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        AtomicInteger users = new AtomicInteger();
        Map<String, String> settings = new HashMap<>(withinOneWindow(0, LIMIT));
        settings.put(TrustedProxies.SETTING, "127.0.0.0/8, ::1");
        try (ManagedIngress proxied = fixture.start(settings)) {
            HttpApi http = proxied.http();
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> {
                int user = users.incrementAndGet();
                return http.buyForwardedFor(sku, "behind-" + user, 1, "203.0.113." + user + ", 198.51.100.7");
            });
            HttpApi.Reply another = http.buyForwardedFor(sku, "neighbour", 1, "198.51.100.8");

            assertThat(replies.stream().filter(reply -> reply.status() == 429)).as("the client's own entries left of the proxy's count for nothing")
                    .hasSize(EXTRA);
            assertThat(another.status()).as("another client behind the proxy has a limit of its own").isEqualTo(202);
        }
    }

    /** Every address's window empty: the tests count from the same loopback address. */
    @BeforeEach
    void forgetEveryAddress() {
        fixture.redis.keys("seckill:{ratelimit}:ip:*").forEach(fixture.redis::del);
    }

    /** A window far longer than the test, so all requests fall into one. */
    private static Map<String, String> withinOneWindow(int perUser, int perAddress) {
        return Map.of("SECKILL_RATE_LIMIT_PER_USER", Integer.toString(perUser),
                "SECKILL_RATE_LIMIT_PER_ADDRESS", Integer.toString(perAddress),
                "SECKILL_RATE_LIMIT_WINDOW_MS", "600000");
    }
}
