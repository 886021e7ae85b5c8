package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.http.TrustedProxies;
import io.seckill.runtime.Concurrently;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * N+k concurrent requests inside one window give exactly k 429s, per buyer and
 * per client address, and a limited request never touches stock.
 */
class RateLimitIT {

    private static final int LIMIT = 5;
    private static final int EXTRA = 7;
    private static final int CROWD = 2_000;
    private static final int CROWD_CONNECTIONS = 64;
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
        Burst burst = burst(withinOneWindow(0, LIMIT), (http, sku, n) -> http.buy(sku, "crowd-" + n, 1));

        assertThat(burst.refused()).isEqualTo(EXTRA);
        assertThat(burst.replies().stream().filter(reply -> reply.status() == 202)).hasSize(LIMIT);
        assertThat(fixture.saleStore.state(burst.sku()).stock()).isEqualTo(100 - LIMIT);
        assertThat(burst.after().status()).as("one more buyer from the address").isEqualTo(429);
    }

    @Test
    void aForgedForwardedForFromAPeerThatIsNoTrustedProxyDoesNotMoveTheAddressLimit() throws Exception {
        Burst burst = burst(
                withinOneWindow(0, LIMIT),
                (http, sku, n) -> http.buyForwardedFor(sku, "forger-" + n, 1, "203.0.113." + n));

        assertThat(burst.refused()).as("one address, whatever it claims").isEqualTo(EXTRA);
        assertThat(fixture.saleStore.state(burst.sku()).stock()).isEqualTo(100 - LIMIT);
        assertThat(burst.after().status()).as("a fresh claim").isEqualTo(429);
    }

    @Test
    void behindATrustedProxyTheAddressIsTheRightmostOneTheProxyWrote() throws Exception {
        Burst burst = burst(behindLoopbackProxy(withinOneWindow(0, LIMIT)), (http, sku, n) -> n == 0
                ? http.buyForwardedFor(sku, "neighbour", 1, "198.51.100.8")
                : http.buyForwardedFor(sku, "behind-" + n, 1, "203.0.113." + n + ", 198.51.100.7"));

        assertThat(burst.refused())
                .as("the client's own entries left of the proxy's count for nothing")
                .isEqualTo(EXTRA);
        assertThat(burst.after().status()).as("another client behind the proxy has a limit of its own").isEqualTo(202);
    }

    /** A proxy may add a line of its own: every line counts, the last one's address is the client's. */
    @Test
    void behindATrustedProxyEveryForwardedForLineCounts() throws Exception {
        Burst burst = burst(behindLoopbackProxy(withinOneWindow(0, LIMIT)),
                (http, sku, n) -> http.buyForwardedFor(sku, "lines-" + n, 1, "203.0.113." + n, "198.51.100.7"));

        assertThat(burst.refused()).as("one client however its own line varies").isEqualTo(EXTRA);
    }

    /** An IPv6 subscriber holds a /64 and may use any address in it: the limit counts the /64. */
    @Test
    void anIpv6ClientIsCountedByItsSlash64() throws Exception {
        Burst burst = burst(
                behindLoopbackProxy(withinOneWindow(0, LIMIT)),
                (http, sku, n) -> http.buyForwardedFor(
                        sku, "v6-" + n, 1, n == 0 ? "2001:db8:1:3::1" : "2001:db8:1:2:" + n + "::" + n));

        assertThat(burst.refused()).as("every address of one /64").isEqualTo(EXTRA);
        assertThat(burst.after().status()).as("the next /64 has a limit of its own").isEqualTo(202);
    }

    /**
     * Past its budget of refused tokens, an address has its tokens refused unread (429) for the window, valid or not,
     * but for one verified before (answered from memory, it costs nothing to read), while buyers elsewhere buy: a flood
     * of forged tokens costs no signature check, no Redis call and no memory.
     */
    @Test
    void anAddressThatShowedTooManyRefusedTokensHasItsNextOnesRefusedUnread() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        Map<String, String> settings = new HashMap<>(behindLoopbackProxy(withinOneWindow(0, 0)));
        settings.put("SECKILL_REFUSED_TOKENS_PER_ADDRESS", Integer.toString(LIMIT));
        String valid = HttpApi.tokenFor("flooder");
        String verifiedBefore = HttpApi.tokenFor("neighbour-behind-the-same-address");
        try (ManagedIngress ingress = fixture.start(settings)) {
            HttpApi http = ingress.http();
            assertThat(http.buyWithToken(sku, verifiedBefore, "203.0.113.66").status()).isEqualTo(202);
            List<HttpApi.Reply> forged = new ArrayList<>();
            for (int sent = 1; sent <= LIMIT + EXTRA; sent++) {
                forged.add(http.buyWithToken(sku, valid + "$".repeat(sent), "203.0.113.66"));
            }

            assertThat(forged.stream().filter(reply -> reply.status() == 401)).hasSize(LIMIT).allSatisfy(reply ->
                    assertThat(reply.code()).isEqualTo("TOKEN_INVALID"));
            assertThat(forged.stream().filter(reply -> reply.status() == 429)).hasSize(EXTRA).allSatisfy(reply ->
                    assertThat(Integer.parseInt(reply.retryAfter())).isPositive());
            assertThat(http.buyWithToken(sku, valid, "203.0.113.66").status())
                    .as("the flooding address, even with a valid token")
                    .isEqualTo(429);
            assertThat(http.buyWithToken(sku, verifiedBefore, "203.0.113.66").code())
                    .as("a token verified before is answered from memory, not refused unread")
                    .isEqualTo("PURCHASE_LIMIT_REACHED");
            assertThat(http.buyWithToken(sku, HttpApi.tokenFor("elsewhere"), "198.51.100.9")
                            .status())
                    .as("a buyer elsewhere")
                    .isEqualTo(202);
            assertThat(fixture.probe.heldBy(sku, "flooder")).isZero();
        }
    }

    /**
     * A crowd of valid buyers behind one address (a campus, a carrier-grade NAT, a proxy not yet trusted) shows 2,000
     * tokens never read before over 64 connections at once, the request limits off and the refused-token budget at its
     * smallest (one refusal): none is refused for a crowd it did not make, since only refusals spend that budget.
     */
    @Test
    void aCrowdOfValidBuyersBehindOneAddressIsNeverRefused() throws Exception {
        long sku = IngressFixture.newSkuId();
        int stock = 100;
        fixture.http.openSale(sku, stock, 1);
        Map<String, String> settings = new HashMap<>(behindLoopbackProxy(withinOneWindow(0, 0)));
        settings.put("SECKILL_REFUSED_TOKENS_PER_ADDRESS", "1");
        try (ManagedIngress ingress = fixture.start(settings)) {
            HttpApi http = ingress.http();
            AtomicInteger next = new AtomicInteger();
            List<List<HttpApi.Reply>> byConnection = Concurrently.run(CROWD_CONNECTIONS, () -> {
                List<HttpApi.Reply> replies = new ArrayList<>();
                for (int buyer = next.getAndIncrement(); buyer < CROWD; buyer = next.getAndIncrement()) {
                    replies.add(http.buyWithToken(sku, HttpApi.tokenFor("crowd-" + buyer), "203.0.113.77"));
                }
                return replies;
            });

            Map<Integer, Long> byStatus = byConnection.stream()
                    .flatMap(List::stream)
                    .collect(Collectors.groupingBy(HttpApi.Reply::status, Collectors.counting()));
            assertThat(byStatus)
                    .as("answers by status")
                    .isEqualTo(Map.of(202, (long) stock, 409, (long) CROWD - stock));
        }
    }

    /**
     * Status, list, payment and cancellation share a limit of their own (polling is not buying): the excess of a burst
     * of polls is refused with Retry-After, the buyer's other order routes too, while buying still counts apart.
     */
    @Test
    void aBuyersOrderRoutesHaveALimitOfTheirOwn() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 5);
        try (ManagedIngress limited = fixture.start(Map.of(
                "SECKILL_ORDERS_RATE_LIMIT_PER_USER",
                Integer.toString(LIMIT),
                "SECKILL_RATE_LIMIT_WINDOW_MS",
                "600000"))) {
            HttpApi http = limited.http();
            String orderId = http.buy(sku, "poller", 1).orderId();

            List<HttpApi.Reply> polls = Concurrently.run(LIMIT + EXTRA, () -> http.order("poller", orderId));

            assertThat(polls.stream().filter(reply -> reply.status() == 200)).hasSize(LIMIT);
            assertThat(polls.stream().filter(reply -> reply.status() == 429)).hasSize(EXTRA).allSatisfy(reply -> {
                assertThat(reply.code()).isEqualTo("RATE_LIMITED");
                assertThat(Integer.parseInt(reply.retryAfter())).isPositive();
            });
            assertThat(http.orders("poller", sku).status()).isEqualTo(429);
            assertThat(http.cancel("poller", orderId, null).status()).isEqualTo(429);
            assertThat(http.order("someone-else", orderId).status()).as("another buyer's own limit").isEqualTo(404);
            assertThat(http.buy(sku, "poller", 1).status()).as("buying counts apart").isEqualTo(202);
        }
    }

    /** The n-th buy of a burst (1 to LIMIT + EXTRA), or the one after it (0). */
    @FunctionalInterface
    private interface Buy {
        HttpApi.Reply send(HttpApi http, long sku, int n);
    }

    /** A burst's replies, and the reply to one more buy once it is over. */
    private record Burst(long sku, List<HttpApi.Reply> replies, HttpApi.Reply after) {
        long refused() {
            return replies.stream().filter(reply -> reply.status() == 429).count();
        }
    }

    /** LIMIT + EXTRA buys at once of a fresh sale, through an ingress started with {@code settings}, then one more. */
    private Burst burst(Map<String, String> settings, Buy buy) throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 100, 1);
        AtomicInteger buys = new AtomicInteger();
        try (ManagedIngress ingress = fixture.start(settings)) {
            HttpApi http = ingress.http();
            List<HttpApi.Reply> replies =
                    Concurrently.run(LIMIT + EXTRA, () -> buy.send(http, sku, buys.incrementAndGet()));
            return new Burst(sku, replies, buy.send(http, sku, 0));
        }
    }

    /** Every address's window empty: the tests count from the same loopback address. */
    @BeforeEach
    void forgetEveryAddress() {
        fixture.redis.keys("seckill:ratelimit:*:{ip:*}").forEach(fixture.redis::del);
    }

    /** {@code settings} with the loopback client believed as a proxy. */
    private static Map<String, String> behindLoopbackProxy(Map<String, String> settings) {
        Map<String, String> behind = new HashMap<>(settings);
        behind.put(TrustedProxies.SETTING, "127.0.0.0/8, ::1");
        return behind;
    }

    /** A window far longer than the test, so all requests fall into one. */
    private static Map<String, String> withinOneWindow(int perUser, int perAddress) {
        return Map.of("SECKILL_RATE_LIMIT_PER_USER", Integer.toString(perUser),
                "SECKILL_RATE_LIMIT_PER_ADDRESS", Integer.toString(perAddress),
                "SECKILL_RATE_LIMIT_WINDOW_MS", "600000");
    }
}
