package io.seckill.ingress.http;

import io.javalin.http.Context;
import io.seckill.redisstate.IdempotencyClaims.StoredReply;
import io.seckill.schemas.api.Problem;

/**
 * A complete HTTP answer, kept as data so an idempotent retry can be given the very same one, and so
 * a frequent answer (sold out) can be rendered once. {@code code} is the problem code, null on success;
 * {@code changedNothing}: the work found its end state already there (cancelling a cancelled order), so
 * the answer is not kept for the key's retries, which find the same state again.
 */
// A reply is written to the wire as it is, never compared or hashed.
@SuppressWarnings("ArrayRecordComponent")
public record Reply(
        int status, String contentType, byte[] body, String location, String code, boolean changedNothing) {

    /** Request attribute: the outcome code counted in the request metrics. */
    public static final String OUTCOME = "seckill.outcome";

    public static final String APPLICATION_JSON = "application/json";

    public static Reply json(int status, Object body, String location) {
        return new Reply(status, APPLICATION_JSON, Json.write(body), location, null, false);
    }

    public static Reply problem(Problem problem, String instance) {
        return new Reply(
                problem.code().status(),
                Json.PROBLEM_JSON,
                Json.write(ProblemBody.of(problem, instance)),
                null,
                problem.code().name(),
                false);
    }

    static Reply of(StoredReply stored) {
        return new Reply(
                stored.status(), stored.contentType(), stored.body(), stored.location(), stored.code(), false);
    }

    /** The same answer, to work that found its end state already there. */
    public Reply asChangingNothing() {
        return new Reply(status, contentType, body, location, code, true);
    }

    StoredReply stored() {
        return new StoredReply(status, contentType, body, location, code);
    }

    public void writeTo(Context ctx) {
        if (location != null) {
            ctx.header("Location", location);
        }
        if (code != null) {
            ctx.attribute(OUTCOME, code);
        }
        ctx.status(status).contentType(contentType).result(body);
    }
}
