package io.seckill.ingress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Map;

/** Strict request bodies in, JSON and problem+json out. */
final class Json {

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

    static <T> T body(Context ctx, Class<T> type) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) {
            throw Problem.badRequest("MALFORMED_JSON", "the request body is empty; a JSON object is expected");
        }
        try {
            T value = STRICT.readValue(body, type);
            if (value == null) {
                throw Problem.badRequest("MALFORMED_JSON", "the request body is null; a JSON object is expected");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw Problem.badRequest("MALFORMED_JSON", e.getOriginalMessage());
        } catch (IOException e) {
            throw Problem.badRequest("MALFORMED_JSON", "unreadable request body");
        }
    }

    static void respond(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(write(body));
    }

    static void problem(Context ctx, Problem problem) {
        ctx.status(problem.status()).contentType("application/problem+json").result(write(Map.of(
                "type", "https://seckill.io/problems/" + problem.code().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                "title", problem.title(),
                "status", problem.status(),
                "detail", problem.getMessage(),
                "code", problem.code(),
                "instance", ctx.path())));
    }

    private static byte[] write(Object body) {
        try {
            return STRICT.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write response body", e);
        }
    }
}
