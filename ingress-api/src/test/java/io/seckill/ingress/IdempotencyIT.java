package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.http.Reply;
import io.seckill.runtime.Concurrently;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** racing retries with one Idempotency-Key reserve once and answer identically. */
class IdempotencyIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void twentyRacingRetriesMakeOneReservationAndGetOneAnswer() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 10, 3);

        List<HttpApi.Reply> replies = Concurrently.run(20, () -> fixture.http.buy(sku, "retrier", 1, "checkout-7"));

        assertThat(replies).extracting(HttpApi.Reply::status).containsOnly(202);
        assertThat(replies).extracting(HttpApi.Reply::body).containsOnly(replies.get(0).body());
        assertThat(fixture.probe.heldBy(sku, "retrier")).isEqualTo(1);
        assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(9);
        assertThat(fixture.sql().fetchCount(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(sku)))).isEqualTo(1);

        String orderId = replies.get(0).orderId();
        // Later retries still get the original answer, and a new key is a new purchase.
        assertThat(fixture.http.buy(sku, "retrier", 1, "checkout-7").body()).isEqualTo(replies.get(0).body());
        assertThat(fixture.http.buy(sku, "retrier", 1, "checkout-8").orderId()).isNotEqualTo(orderId);
        assertThat(fixture.probe.heldBy(sku, "retrier")).isEqualTo(2);
    }

    @Test
    void aRetryWhoseKeyRedisNoLongerHoldsFindsItsOrderInMySql() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 10, 3);
        HttpApi.Reply first = fixture.http.buy(sku, "forgotten", 1, "checkout-9");
        assertThat(first.status()).isEqualTo(202);

        fixture.redis.del("seckill:idempotency:{forgotten}:checkout-9");
        HttpApi.Reply retry = fixture.http.buy(sku, "forgotten", 1, "checkout-9");

        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.orderId()).isEqualTo(first.orderId());
        assertThat(fixture.sql().fetchCount(OUTBOX, OUTBOX.AGGREGATEID.eq(Long.toString(sku)).and(OUTBOX.TYPE.eq("OrderRequested"))))
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(fixture.probe.heldBy(sku, "forgotten")).isEqualTo(1);
            assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(9);
        });
    }

    @Test
    void theSameKeyWithADifferentBodyIsRefused() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 10, 3);
        assertThat(fixture.http.buy(sku, "changer", 1, "k-1").status()).isEqualTo(202);

        HttpApi.Reply changed = fixture.http.buy(sku, "changer", 2, "k-1");

        assertThat(changed.status()).isEqualTo(422);
        assertThat(changed.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(fixture.probe.heldBy(sku, "changer")).isEqualTo(1);
    }

    @Test
    void aRefusalIsRepeatedToo() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 1, 1);
        assertThat(fixture.http.buy(sku, "first", 1).status()).isEqualTo(202);

        HttpApi.Reply refused = fixture.http.buy(sku, "late", 1, "late-1");
        assertThat(refused.code()).isEqualTo("SOLD_OUT");
        assertThat(fixture.http.buy(sku, "late", 1, "late-1").body()).isEqualTo(refused.body());
    }
}
