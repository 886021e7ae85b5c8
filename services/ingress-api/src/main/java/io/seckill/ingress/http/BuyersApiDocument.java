package io.seckill.ingress.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * The OpenAPI document as the buyers' listener serves it: the whole document (the admin listener's) without the admin
 * routes and without what only they use (their tags, security scheme, schemas and responses), so the buyers' port
 * describes the buyers' API and maps nothing of the operators' for whoever reads it.
 */
public final class BuyersApiDocument {

    static final String ADMIN_PATHS = "/admin/";
    private static final String COMPONENTS_PREFIX = "#/components/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private BuyersApiDocument() {
    }

    /** @param whole the whole document's bytes */
    public static byte[] of(byte[] whole) {
        try {
            ObjectNode document = (ObjectNode) JSON.readTree(whole);
            ObjectNode paths = (ObjectNode) document.get("paths");
            paths.properties().removeIf(path -> path.getKey().startsWith(ADMIN_PATHS));
            keepUsedTags(document, paths);
            keepReachableComponents(document);
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(document);
        } catch (IOException e) {
            throw new UncheckedIOException("the OpenAPI document does not parse", e);
        }
    }

    private static void keepUsedTags(ObjectNode document, JsonNode paths) {
        Set<String> used = new HashSet<>();
        paths.forEach(path -> path.forEach(operation -> operation.path("tags").forEach(tag -> used.add(tag.asText()))));
        if (document.get("tags") instanceof ArrayNode tags) {
            for (int i = tags.size() - 1; i >= 0; i--) {
                if (!used.contains(tags.get(i).path("name").asText())) {
                    tags.remove(i);
                }
            }
        }
    }

    /**
     * Every component a remaining part of the document refers to ({@code $ref}, and security requirements by scheme
     * name), followed through the components themselves; the rest removed.
     */
    private static void keepReachableComponents(ObjectNode document) {
        ObjectNode components = (ObjectNode) document.get("components");
        if (components == null) {
            return;
        }
        Set<String> reached = new HashSet<>();
        Deque<JsonNode> pending = new ArrayDeque<>();
        document.properties().forEach(field -> {
            if (!field.getKey().equals("components")) {
                pending.push(field.getValue());
            }
        });
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            if (node.isObject()) {
                JsonNode ref = node.get("$ref");
                if (ref != null
                        && ref.isTextual()
                        && ref.asText().startsWith(COMPONENTS_PREFIX)
                        && reached.add(ref.asText())) {
                    String[] kindAndName = ref.asText().substring(COMPONENTS_PREFIX.length()).split("/", 2);
                    pending.push(components.path(kindAndName[0]).path(kindAndName[1]));
                }
                JsonNode security = node.get("security");
                if (security != null && security.isArray()) {
                    security.forEach(requirement -> requirement
                            .fieldNames()
                            .forEachRemaining(scheme -> reached.add(COMPONENTS_PREFIX + "securitySchemes/" + scheme)));
                }
            }
            node.forEach(pending::push);
        }
        components.properties().forEach(kind -> {
            if (kind.getValue() instanceof ObjectNode entries) {
                entries.properties()
                        .removeIf(entry -> !reached.contains(COMPONENTS_PREFIX + kind.getKey() + "/" + entry.getKey()));
            }
        });
    }
}
