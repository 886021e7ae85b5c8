package io.seckill.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The served OpenAPI document held against real answers: every reply the tests' client gets on a documented route
 * must have a documented status and content type, a body its schema accepts, and a problem code that reply lists,
 * so the contract cannot drift from the code. Routes the document does not describe (management, benchmark) and
 * the answers any path may give (x-error-codes-any-path) are checked as far as the document says.
 */
public final class ApiContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final ApiContract SERVED = new ApiContract(servedDocument());

    private final JsonNode document;
    private final List<Route> routes;
    private final Set<String> anyPathCodes = new HashSet<>();
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private record Route(Pattern path, String template) {
    }

    ApiContract(JsonNode document) {
        this.document = document;
        List<Route> documented = new ArrayList<>();
        document.path("paths").fieldNames().forEachRemaining(template ->
                documented.add(new Route(Pattern.compile(template.replaceAll("\\{[^}]+}", "[^/]+")), template)));
        this.routes = List.copyOf(documented);
        document.path("x-error-codes-any-path").forEach(code -> anyPathCodes.add(code.asText()));
    }

    /** The document the ingress serves. */
    public static ApiContract served() {
        return SERVED;
    }

    private static JsonNode servedDocument() {
        try (InputStream in = ApiContract.class.getResourceAsStream("/openapi.json")) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws AssertionError naming what breaks the contract */
    public void check(String method, String path, int status, String contentType, String body) {
        Optional<Route> route = routes.stream()
                .filter(candidate -> candidate.path().matcher(path).matches())
                .findFirst();
        if (route.isEmpty()) {
            return;
        }
        String operationPointer = "/paths/" + escape(route.get().template()) + "/" + method.toLowerCase(Locale.ROOT);
        if (document.at(operationPointer).isMissingNode()) {
            return;
        }
        String where = method + " " + path + " answered " + status;
        String responsePointer = operationPointer + "/responses/" + status;
        JsonNode response = document.at(responsePointer);
        if (response.has("$ref")) {
            responsePointer = response.get("$ref").asText().substring(1);
            response = document.at(responsePointer);
        }
        if (response.isMissingNode()) {
            String code = problemCode(body);
            if (!anyPathCodes.contains(code)) {
                throw new AssertionError(where + ", a status the document does not give it (body " + body + ")");
            }
            validate(where, "/components/schemas/Problem", body);
            return;
        }
        String mediaType = contentType.split(";", -1)[0].strip();
        JsonNode media = response.path("content").path(mediaType);
        if (media.isMissingNode()) {
            if (body.isEmpty() && response.path("content").isMissingNode()) {
                return;
            }
            throw new AssertionError(where + " with " + mediaType + ", which the document does not give it");
        }
        validate(where, responsePointer + "/content/" + escape(mediaType) + "/schema", body);
        if (mediaType.equals("application/problem+json")) {
            Set<String> listed = new HashSet<>(anyPathCodes);
            response.path("x-error-codes").forEach(code -> listed.add(code.asText()));
            String code = problemCode(body);
            if (!listed.contains(code)) {
                throw new AssertionError(
                        where + " with code " + code + ", which the document does not list for it (" + listed + ")");
            }
        }
    }

    private void validate(String where, String schemaPointer, String body) {
        List<Error> errors = schemas.computeIfAbsent(schemaPointer, this::schemaAt).validate(body, InputFormat.JSON);
        if (!errors.isEmpty()) {
            throw new AssertionError(
                    where + " with a body its schema (" + schemaPointer + ") refuses: " + errors + "\nbody: " + body);
        }
    }

    /** The document itself as the schema root (so its references resolve), pointing at the one schema to apply. */
    private Schema schemaAt(String pointer) {
        ObjectNode root = document.deepCopy();
        root.put("$ref", "#" + pointer);
        return SCHEMAS.getSchema(root.toString(), InputFormat.JSON);
    }

    private static String problemCode(String body) {
        try {
            return JSON.readTree(body).path("code").asText();
        } catch (IOException e) {
            return "";
        }
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
