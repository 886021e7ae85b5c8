package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 3, acceptance 3: per-user limit 2, ten concurrent requests of one unit: exactly two units. */
class PerUserLimitTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void tenConcurrentBuysOfOneUnitEndWithExactlyTheLimit() throws Exception {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 100, 2);

        List<HttpApi.Reply> replies = Concurrently.run(10, () -> pipeline.http.buy(sku, "eager", 1));

        assertThat(replies.stream().filter(reply -> reply.status() == 202)).hasSize(2);
        assertThat(replies.stream().filter(reply -> reply.status() != 202))
                .hasSize(8).allSatisfy(reply -> assertThat(reply.code()).isEqualTo("PURCHASE_LIMIT_REACHED"));
        assertThat(pipeline.saleStore.heldBy(sku, "eager")).isEqualTo(2);
        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.sql().fetchOptional(USER_PURCHASES,
                USER_PURCHASES.SKU_ID.eq(sku).and(USER_PURCHASES.USER_ID.eq("eager")))
                .map(row -> row.getQuantity() == 2).orElse(false));
    }
}
