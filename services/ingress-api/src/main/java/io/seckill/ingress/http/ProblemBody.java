package io.seckill.ingress.http;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import io.seckill.schemas.api.Problem;
import java.util.Map;

/**
 * A problem as RFC 9457 writes it: its standard members, the stable {@code code}, and the problem's extension members
 * (such as {@code retryAfterSeconds} or {@code available}) as members of the same object. The extensions stay a map:
 * RFC 9457 lets each problem type add its own.
 */
record ProblemBody(String type, String title, int status, String detail, String code, String instance,
                   @JsonAnyGetter Map<String, Object> extensions) {

    static ProblemBody of(Problem problem, String instance) {
        return new ProblemBody(
                problem.code().type(),
                problem.code().title(),
                problem.code().status(),
                problem.getMessage(),
                problem.code().name(),
                instance,
                problem.extensions());
    }
}
