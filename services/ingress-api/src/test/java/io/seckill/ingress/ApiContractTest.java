package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The contract check refuses what drifts from the document and lets through what it describes. */
class ApiContractTest {

    private static final String ORDER_ID = "0b9e5f4e-8f0a-4c51-9a57-2f7c3e0d6a11";
    private final ApiContract contract = ApiContract.served();

    @Test
    void aDocumentedAnswerPasses() {
        assertThatCode(() -> contract.check(
                        "POST",
                        "/api/v1/skus/42/orders",
                        202,
                        "application/json",
                        "{\"orderId\":\"" + ORDER_ID + "\",\"status\":\"PENDING\",\"statusUrl\":\"/api/v1/orders/"
                                + ORDER_ID + "\"}"))
                .doesNotThrowAnyException();
        assertThatCode(() -> contract.check("GET", "/ready", 503, "application/json", "{}")).doesNotThrowAnyException();
    }

    @Test
    void aBodyItsSchemaRefusesFails() {
        assertThatThrownBy(() -> contract.check("POST", "/api/v1/skus/42/orders", 202, "application/json",
                "{\"status\":\"PENDING\",\"statusUrl\":\"/api/v1/orders/x\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("orderId");
    }

    @Test
    void anUndocumentedStatusOrCodeFails() {
        assertThatThrownBy(() -> contract.check("GET", "/health", 418, "application/json", "{\"code\":\"TEAPOT\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("does not give it");
        assertThatThrownBy(() -> contract.check("POST", "/api/v1/skus/42/orders", 409, "application/problem+json",
                "{\"type\":\"https://seckill.io/problems/rate-limited\",\"title\":\"Too many requests\",\"status\":409,"
                        + "\"detail\":\"x\",\"code\":\"RATE_LIMITED\",\"instance\":\"/api/v1/skus/42/orders\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("RATE_LIMITED");
    }
}
