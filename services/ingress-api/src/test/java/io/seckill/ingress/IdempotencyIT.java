package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.runtime.Concurrently;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;

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
        assertThat(fixture.sql()
                        .fetchCount(
                                OUTBOX,
                                OUTBOX.AGGREGATEID.eq(Long.toString(sku)).and(OUTBOX.TYPE.eq("OrderRequested"))))
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

    /**
     * A refusal changed nothing, so it is not kept (one client's fresh keys cannot fill Redis with refusals): the retry
     * with the same key does the work again and learns what is true by then; the success it gets is kept.
     */
    @Test
    void aRefusalIsNotKeptSoTheRetryLearnsWhatIsTrueByThen() {
        long sku = IngressFixture.newSkuId();
        Instant now = Instant.now();
        fixture.http.defineSale(sku, 1, 1, now.plusSeconds(3600), now.plusSeconds(7200));
        HttpApi.Reply early = fixture.http.buy(sku, "early", 1, "early-1");
        assertThat(early.status()).isEqualTo(409);

        assertThat(fixture.http
                        .defineSale(sku, 1, 1, now.minusSeconds(1), now.plusSeconds(7200))
                        .status())
                .isEqualTo(200);
        HttpApi.Reply retried = fixture.http.buy(sku, "early", 1, "early-1");
        assertThat(retried.status()).isEqualTo(202);
        assertThat(fixture.http.buy(sku, "early", 1, "early-1").body()).isEqualTo(retried.body());
        assertThat(fixture.probe.heldBy(sku, "early")).isEqualTo(1);
    }

    /**
     * Redis stops answering after the order is recorded and before its reply is kept (CLIENT PAUSE, longer than the
     * ingress's Redis timeout, while the publish to an unreachable broker holds the request): the order is recorded, so
     * the buyer is told 202, never a failure.
     */
    @Test
    void anOrderRecordedWhileRedisCannotKeepTheReplyIsStillAnsweredAccepted() throws Exception {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 10, 3);
        InfraAddresses noBroker = new InfraAddresses(
                fixture.infra.mysqlUrl(),
                fixture.infra.mysqlUser(),
                fixture.infra.mysqlPassword(),
                fixture.infra.redis(),
                new KafkaAccess(
                        "127.0.0.1:" + closedPort(), fixture.infra.kafka().security()));
        Map<String, String> settings = new HashMap<>(Map.of(
                DeploymentMode.SETTING,
                "development",
                "SECKILL_HTTP_PORT",
                "0",
                "SECKILL_ADMIN_PORT",
                "0",
                TokenSettings.SECRET,
                HttpApi.TOKEN_SECRET,
                TokenSettings.ADMIN_SECRET,
                HttpApi.ADMIN_TOKEN_SECRET,
                "SECKILL_KAFKA_MAX_BLOCK_MS",
                "3000"));
        try (ManagedIngress cutOff = ManagedIngress.start(IngressConfig.from(new Env(settings), noBroker));
             Jedis operator = new Jedis(LocalInfrastructure.get().addresses().redis().firstNodeUri())) {
            CompletableFuture<HttpApi.Reply> answer =
                    CompletableFuture.supplyAsync(() -> cutOff.http().buy(sku, "unkept", 1, "kept-nowhere"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> new OutboxLookups()
                            .orderForKey(fixture.sql(), "unkept", "kept-nowhere")
                            .isPresent());
            operator.clientPause(5_000, ClientPauseMode.ALL);

            HttpApi.Reply reply = answer.get();
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            assertThat(reply.orderId())
                    .isEqualTo(new OutboxLookups()
                            .orderForKey(fixture.sql(), "unkept", "kept-nowhere")
                            .orElseThrow()
                            .orderId());
            operator.clientUnpause();
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
