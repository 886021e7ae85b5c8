package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 3, acceptance 2: racing retries with one Idempotency-Key reserve once and answer identically. */
class IdempotencyTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void twentyRacingRetriesMakeOneReservationAndGetOneAnswer() throws Exception {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 10, 3);

        List<HttpApi.Reply> replies = Concurrently.run(20, () -> pipeline.http.buy(sku, "retrier", 1, "checkout-7"));

        assertThat(replies).extracting(HttpApi.Reply::status).containsOnly(202);
        assertThat(replies).extracting(HttpApi.Reply::body).containsOnly(replies.get(0).body());
        assertThat(pipeline.saleStore.heldBy(sku, "retrier")).isEqualTo(1);
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(9);
        assertThat(pipeline.sql().fetchCount(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(sku)))).isEqualTo(1);

        String orderId = replies.get(0).orderId();
        await().atMost(Duration.ofSeconds(60)).until(() -> "CONFIRMED".equals(pipeline.http.orderStatus("retrier", orderId)));
        // Later retries still get the original answer, and a new key is a new purchase.
        assertThat(pipeline.http.buy(sku, "retrier", 1, "checkout-7").body()).isEqualTo(replies.get(0).body());
        assertThat(pipeline.http.buy(sku, "retrier", 1, "checkout-8").orderId()).isNotEqualTo(orderId);
        assertThat(pipeline.saleStore.heldBy(sku, "retrier")).isEqualTo(2);
    }

    @Test
    void theSameKeyWithADifferentBodyIsRefused() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 10, 3);
        assertThat(pipeline.http.buy(sku, "changer", 1, "k-1").status()).isEqualTo(202);

        HttpApi.Reply changed = pipeline.http.buy(sku, "changer", 2, "k-1");

        assertThat(changed.status()).isEqualTo(422);
        assertThat(changed.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(pipeline.saleStore.heldBy(sku, "changer")).isEqualTo(1);
    }

    @Test
    void aRefusalIsRepeatedToo() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 1, 1);
        assertThat(pipeline.http.buy(sku, "first", 1).status()).isEqualTo(202);

        HttpApi.Reply refused = pipeline.http.buy(sku, "late", 1, "late-1");
        assertThat(refused.code()).isEqualTo("SOLD_OUT");
        assertThat(pipeline.http.buy(sku, "late", 1, "late-1").body()).isEqualTo(refused.body());
    }
}
