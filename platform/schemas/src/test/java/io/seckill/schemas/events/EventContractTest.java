package io.seckill.schemas.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every event as encoded matches its published JSON Schema, and decoding enforces the contract. */
class EventContractTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), 42, "user-1", 2,
            Instant.parse("2026-11-29T10:00:00.123Z"));

    @Test
    void orderRequestedMatchesItsSchemaAndRoundTrips() {
        assertMatchesSchema(order, "order-requested.v1.json");
        assertThat(EventJson.decode(EventJson.encode(order), OrderRequested.class)).isEqualTo(order);
    }

    @Test
    void orderResultsMatchTheirSchema() {
        OrderResult confirmed = OrderResult.confirmed(order, Instant.now());
        OrderResult rejected = OrderResult.rejected(order, RejectReason.SOLD_OUT, Instant.now());
        assertMatchesSchema(confirmed, "order-result.v1.json");
        assertMatchesSchema(rejected, "order-result.v1.json");
        assertThat(EventJson.decode(EventJson.encode(rejected), OrderResult.class)).isEqualTo(rejected);
        assertThat(EventJson.decode(EventJson.encode(confirmed), OrderResult.class)).isEqualTo(confirmed);
    }

    @Test
    void stockCompensationMatchesItsSchema() {
        StockCompensation compensation = StockCompensation.forRejected(
                OrderResult.rejected(order, RejectReason.SOLD_OUT, Instant.now()));
        assertMatchesSchema(compensation, "stock-compensation.v1.json");
        assertThat(EventJson.decode(EventJson.encode(compensation), StockCompensation.class)).isEqualTo(compensation);
    }

    @Test
    void lifecycleEventsMatchTheirSchemasAndDecodeToTheirKind() {
        Instant at = Instant.parse("2026-11-29T10:15:00.456Z");
        OrderPaid paid = new OrderPaid(1, order.orderId(), 42, "user-1", 2, "psp-123", at);
        OrderCancelled cancelled = new OrderCancelled(1, order.orderId(), 42, "user-1", 2, at);
        OrderExpired expired = new OrderExpired(1, order.orderId(), 42, "user-1", 2, at.minusMillis(1), at);
        assertMatchesSchema(paid, "order-paid.v1.json");
        assertMatchesSchema(cancelled, "order-cancelled.v1.json");
        assertMatchesSchema(expired, "order-expired.v1.json");
        for (OrderLifecycleEvent event : new OrderLifecycleEvent[] {paid, cancelled, expired}) {
            assertThat(EventJson.decode(EventJson.encode(event), OrderLifecycleEvent.class)).isEqualTo(event);
        }
        assertThat(new String(EventJson.encode(expired), StandardCharsets.UTF_8)).contains("\"type\":\"OrderExpired\"");
        assertThat(paid.returnsStock()).isFalse();
        assertThat(cancelled.returnsStock()).isTrue();
        assertThat(expired.returnsStock()).isTrue();
        String noReference = new String(EventJson.encode(paid), StandardCharsets.UTF_8)
                .replace("\"paymentReference\":\"psp-123\",", "");
        assertThatThrownBy(
                        () -> EventJson.decode(noReference.getBytes(StandardCharsets.UTF_8), OrderLifecycleEvent.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("paymentReference");
        assertThatThrownBy(() -> EventJson.decode(
                        "{\"type\":\"OrderShipped\"}".getBytes(StandardCharsets.UTF_8), OrderLifecycleEvent.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("undecodable");
    }

    @Test
    void decodingRejectsWhatBreaksTheContract() {
        assertThatThrownBy(() -> EventJson.decode("not json".getBytes(StandardCharsets.UTF_8), OrderRequested.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("undecodable");
        assertThatThrownBy(() -> EventJson.decode(new byte[0], OrderRequested.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("empty");
        String zeroQuantity =
                new String(EventJson.encode(order), StandardCharsets.UTF_8).replace("\"quantity\":2", "\"quantity\":0");
        assertThatThrownBy(() -> EventJson.decode(zeroQuantity.getBytes(StandardCharsets.UTF_8), OrderRequested.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("quantity");
        String noSku = new String(EventJson.encode(order), StandardCharsets.UTF_8).replace("\"skuId\":42,", "");
        assertThatThrownBy(() -> EventJson.decode(noSku.getBytes(StandardCharsets.UTF_8), OrderRequested.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("skuId");
    }

    @Test
    void everyRejectReasonIsInTheSchemasOfTheEventsThatCarryOne() throws IOException {
        for (String schemaFile : new String[] {"order-result.v1.json", "stock-compensation.v1.json"}) {
            try (InputStream in = EventContractTest.class.getResourceAsStream("/json-schema/" + schemaFile)) {
                JsonNode reasons = new ObjectMapper().readTree(in).path("properties").path("reason").path("enum");
                assertThat(reasons)
                        .extracting(JsonNode::asText)
                        .containsExactlyInAnyOrder(Arrays.stream(RejectReason.values())
                                .map(Enum::name)
                                .toArray(String[]::new));
            }
        }
    }

    @Test
    void aUserIdOutsideTheFormatIsRefusedByTheDecoderAndTheSchemaAlike() {
        OrderRequested spaced = OrderRequested.of(order.orderId(), 42, "has space", 1, order.requestedAt());
        assertThatThrownBy(() -> EventJson.decode(EventJson.encode(spaced), OrderRequested.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("userId");
        Schema schema =
                SCHEMAS.getSchema(EventContractTest.class.getResourceAsStream("/json-schema/order-requested.v1.json"));
        assertThat(schema.validate(EventJson.encodeToString(spaced), InputFormat.JSON)).isNotEmpty();
    }

    private static void assertMatchesSchema(Object event, String schemaFile) {
        try (InputStream in = EventContractTest.class.getResourceAsStream("/json-schema/" + schemaFile)) {
            Schema schema = SCHEMAS.getSchema(in);
            assertThat(schema.validate(EventJson.encodeToString(event), InputFormat.JSON)).isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
