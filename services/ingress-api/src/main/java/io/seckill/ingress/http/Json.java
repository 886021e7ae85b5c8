package io.seckill.ingress.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.http.Context;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.io.IOException;
import java.util.Locale;
import java.util.stream.Collectors;

/** Strict request bodies in, JSON and problem+json out. */
public final class Json {

    static final String PROBLEM_JSON = "application/problem+json";

    /** Unknown fields, strings for numbers, floats for ints and trailing garbage are all errors. */
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private Json() {
    }

    /** Reads a JSON body strictly; the request must say it is JSON. */
    public static <T> T body(Context ctx, Class<T> type) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new Problem(
                    ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the body must be application/json, was " + contentType);
        }
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) {
            throw new Problem(ErrorCode.MALFORMED_JSON, "the request body is empty; a JSON object is expected");
        }
        try {
            T value = STRICT.readValue(body, type);
            if (value == null) {
                throw new Problem(ErrorCode.MALFORMED_JSON, "the request body is null; a JSON object is expected");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new Problem(ErrorCode.MALFORMED_JSON, detail(e));
        } catch (IOException e) {
            throw new Problem(ErrorCode.MALFORMED_JSON, "unreadable request body");
        }
    }

    /**
     * What was wrong with a body, in the API's terms: the field and what it should have been, never the parser's own
     * message, which names the Java classes behind the API.
     */
    private static String detail(JsonProcessingException failure) {
        if (failure instanceof UnrecognizedPropertyException unknown) {
            return "unknown field '" + unknown.getPropertyName() + "'; the fields are " + unknown.getKnownPropertyIds();
        }
        String field = failure instanceof JsonMappingException bound
                ? bound.getPath().stream()
                        .map(reference -> reference.getFieldName() != null
                                ? reference.getFieldName()
                                : "[" + reference.getIndex() + "]")
                        .collect(Collectors.joining("."))
                : "";
        if (failure instanceof MismatchedInputException && !field.isEmpty()) {
            return "field '" + field + "' is not of its type (docs/api.md)";
        }
        if (failure instanceof MismatchedInputException) {
            return "the body is not the JSON object this route takes";
        }
        if (failure.getLocation() != null) {
            return "not JSON at line " + failure.getLocation().getLineNr() + ", column "
                    + failure.getLocation().getColumnNr();
        }
        return "the body is not JSON";
    }

    public static void respond(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(write(body));
    }

    public static void problem(Context ctx, Problem problem) {
        Object retryAfter = problem.extensions().get(Problem.RETRY_AFTER_SECONDS);
        if (retryAfter != null) {
            ctx.header("Retry-After", retryAfter.toString());
        }
        ctx.attribute(Reply.OUTCOME, problem.code().name());
        ctx.status(problem.code().status())
                .contentType(PROBLEM_JSON)
                .result(write(ProblemBody.of(problem, ctx.path())));
    }

    static byte[] write(Object body) {
        try {
            return STRICT.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write response body", e);
        }
    }
}
