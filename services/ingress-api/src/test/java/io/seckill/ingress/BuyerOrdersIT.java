package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/orders?skuId=}: a buyer whose connection dropped before the answer finds every
 * order they made of a SKU, each with its state, and nobody else's.
 */
class BuyerOrdersIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aBuyerListsTheirOwnOrdersOfASkuWithWhatBecameOfEach() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 10, 5);
        String pending = fixture.http.buy(sku, "lister", 1).orderId();
        String confirmed = fixture.http.buy(sku, "lister", 2).orderId();
        fixture.http.buy(sku, "someone-else", 1);
        OrderRequested decided = OrderRequested.of(confirmed, sku, "lister", 2, Instant.now());
        new Orders()
                .insert(
                        fixture.sql(),
                        List.of(decided),
                        List.of(OrderResult.confirmed(decided, Instant.now())),
                        Duration.ofMinutes(15));
        String fenced = UUID.randomUUID().toString();
        new Outbox().voidUnrecorded(fixture.sql(), List.of(new OrderFacts(fenced, sku, "lister", 1)), Instant.now());

        HttpApi.Reply listed = fixture.http.orders("lister", sku);

        assertThat(listed.status()).isEqualTo(200);
        Map<String, String> statuses = StreamSupport.stream(listed.json().path("orders").spliterator(), false)
                .collect(Collectors.toMap(order -> order.path("orderId").asText(), BuyerOrdersIT::statusAndReason));
        assertThat(statuses).containsOnly(
                Map.entry(pending, "PENDING"),
                Map.entry(confirmed, "CONFIRMED"),
                Map.entry(fenced, "REJECTED NOT_RECORDED"));
    }

    @Test
    void theSkuIsRequired() {
        HttpApi.Reply refused = fixture.http.send(HttpRequest.newBuilder(fixture.http.uri("/api/v1/orders"))
                .header("Authorization", "Bearer " + HttpApi.tokenFor("lister")).GET());

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.code()).isEqualTo("INVALID_SKU_ID");
    }

    private static String statusAndReason(JsonNode order) {
        return order.path("reason").isNull()
                ? order.path("status").asText()
                : order.path("status").asText() + " " + order.path("reason").asText();
    }
}
