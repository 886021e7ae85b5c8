package io.seckill.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A problem's extension members are members of the problem object itself, as RFC 9457 has them. */
class ProblemBodyTest {

    @Test
    void extensionMembersSitBesideTheStandardOnes() throws IOException {
        Problem problem = new Problem(ErrorCode.RATE_LIMITED, "too many requests").with(Problem.RETRY_AFTER_SECONDS, 3);

        JsonNode body = new ObjectMapper().readTree(Json.write(ProblemBody.of(problem, "/api/v1/orders")));

        assertThat(body.path("retryAfterSeconds").asInt()).isEqualTo(3);
        assertThat(body.path("code").asText()).isEqualTo("RATE_LIMITED");
        assertThat(body.path("status").asInt()).isEqualTo(429);
        assertThat(body.path("instance").asText()).isEqualTo("/api/v1/orders");
        assertThat(body.properties().stream().map(Map.Entry::getKey).toList())
                .containsExactly("type", "title", "status", "detail", "code", "instance", "retryAfterSeconds");
    }
}
