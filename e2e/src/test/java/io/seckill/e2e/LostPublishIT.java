package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaPrincipal;
import io.seckill.ingress.HttpApi;
import io.seckill.ingress.HttpApi.Reply;
import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.runtime.TestHost;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** With the ingress's own Kafka publish failing, orders still arrive through the outbox relay. */
@ExtendWith(Pipeline.StaysAlive.class)
class LostPublishIT {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void ordersWhosePublishFailedArriveThroughTheRelayAndConfirm() throws IOException {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        InfraAddresses ingress = LocalInfrastructure.get().addressesFor(KafkaPrincipal.INGRESS);
        InfraAddresses noKafka = new InfraAddresses(
                ingress.mysqlUrl(),
                ingress.mysqlUser(),
                ingress.mysqlPassword(),
                ingress.redis(),
                new KafkaAccess("127.0.0.1:" + closedPort(), ingress.kafka().security()));
        IngressConfig config =
                IngressConfig.from(pipeline.env.withDefault("SECKILL_KAFKA_MAX_BLOCK_MS", "300"), noKafka);

        List<String> orderIds = new ArrayList<>();
        try (IngressApi cutOff = IngressApi.start(config, new TestHost().host())) {
            HttpApi http = new HttpApi(cutOff.port(), cutOff.adminPort());
            for (int i = 0; i < 3; i++) {
                Reply reply = http.buy(sku, "lost-" + i, 1);
                assertThat(reply.status()).isEqualTo(202);
                orderIds.add(reply.orderId());
            }
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (int i = 0; i < orderIds.size(); i++) {
                assertThat(pipeline.http.orderStatus("lost-" + i, orderIds.get(i))).isEqualTo("CONFIRMED");
            }
        });
        assertThat(pipeline.sql()
                        .select(OUTBOX.RELAY_ATTEMPTS)
                        .from(OUTBOX)
                        .where(OUTBOX.ID.in(orderIds))
                        .fetch(OUTBOX.RELAY_ATTEMPTS))
                .allSatisfy(attempts -> assertThat(attempts).isPositive());
    }

    /** A port nobody listens on: the producer's connection is refused. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
