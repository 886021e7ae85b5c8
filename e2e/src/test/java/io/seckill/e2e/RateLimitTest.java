package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 3, acceptance 5: N+k concurrent requests inside one window give exactly k 429s, per buyer and
 * per client address, and a limited request never touches stock.
 */
class RateLimitTest {

    private static final int LIMIT = 5;
    private static final int EXTRA = 7;
    private final Pipeline pipeline = Pipeline.get();

    @Test
    void aBuyerGetsExactlyTheExcessRefused() throws Exception {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 100, 1);
        try (IngressApi limited = IngressApi.start(withLimits(LIMIT, 0))) {
            HttpApi http = new HttpApi(limited.port());
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> http.buy(sku, "bot", 1));

            List<HttpApi.Reply> limitedReplies = replies.stream().filter(reply -> reply.status() == 429).toList();
            assertThat(limitedReplies).hasSize(EXTRA).allSatisfy(reply -> {
                assertThat(reply.code()).isEqualTo("RATE_LIMITED");
                assertThat(Integer.parseInt(reply.retryAfter())).isPositive();
            });
            assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(1);
            assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(99);
        }
    }

    @Test
    void anAddressGetsExactlyTheExcessRefusedWhoeverBuys() throws Exception {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 100, 1);
        AtomicInteger users = new AtomicInteger();
        try (IngressApi limited = IngressApi.start(withLimits(0, LIMIT))) {
            HttpApi http = new HttpApi(limited.port());
            List<HttpApi.Reply> replies = Concurrently.run(LIMIT + EXTRA, () -> http.buy(sku, "crowd-" + users.incrementAndGet(), 1));

            assertThat(replies.stream().filter(reply -> reply.status() == 429)).hasSize(EXTRA);
            assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(LIMIT);
            assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(100 - LIMIT);
        }
    }

    /** A window far longer than the test, so all requests fall into one. */
    private IngressConfig withLimits(int perUser, int perAddress) {
        return IngressConfig.from(new io.seckill.config.Env(java.util.Map.of(
                "SECKILL_HTTP_PORT", "0",
                IngressConfig.TOKEN_SECRET, Pipeline.TOKEN_SECRET,
                IngressConfig.ADMIN_TOKEN, Pipeline.ADMIN_TOKEN,
                "SECKILL_RATE_LIMIT_PER_USER", Integer.toString(perUser),
                "SECKILL_RATE_LIMIT_PER_ADDRESS", Integer.toString(perAddress),
                "SECKILL_RATE_LIMIT_WINDOW_MS", "600000")), pipeline.infra);
    }
}
