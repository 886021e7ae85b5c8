package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.PlaintextNetwork;
import io.seckill.redisstate.RedisRelease;
import io.seckill.schemas.redis.RedisUser;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docker-compose.yml, its Prometheus and Grafana files, the Dockerfile and docs/configuration.md
 * table, held to the code: the variables they set or document are the ones the code reads, every
 * service is watched, and the images are the releases the build uses.
 */
class DeploymentFilesTest {

    private static final Path REPO = CodeVariables.REPO;
    private static final Pattern REQUIRED_REFERENCE = Pattern.compile("\\$\\{([A-Z_]+):\\?");
    private static final Pattern SECRET_NAME = Pattern.compile("PASSWORD|SECRET");
    private static final List<String> SERVICES = List.of("ingress-api", "stream-processor", "db-sink", "reconciler");
    private static final Pattern DOCUMENTED_ROW = Pattern.compile("^\\| `(SECKILL_[A-Z0-9_]+)` \\|", Pattern.MULTILINE);
    /** The longest orderly shutdown of a service: Kafka Streams and the consumer loops wait up to 30 s. */
    private static final Duration LONGEST_SHUTDOWN = Duration.ofSeconds(30);

    @Test
    void everySeckillVariableComposeSetsIsOneTheCodeReads() {
        Set<String> set = new TreeSet<>();
        services().values().forEach(service -> set.addAll(environment(service).keySet()));
        set.removeIf(name -> !name.startsWith("SECKILL_"));
        assertThat(set).isNotEmpty();
        assertThat(CodeVariables.all()).containsAll(set);
    }

    @Test
    void everyVariableTheCodeReadsIsDocumentedInTheConfigurationReferenceAndNothingElseIs() {
        Set<String> documented = new TreeSet<>();
        Matcher rows = DOCUMENTED_ROW.matcher(CodeVariables.read(REPO.resolve("docs/configuration.md")));
        while (rows.find()) {
            documented.add(rows.group(1));
        }
        assertThat(documented).isEqualTo(CodeVariables.all());
    }

    @Test
    void everyServiceHasAHealthcheckAndAStopGracePeriodLongerThanItsShutdown() {
        services().forEach((name, service) -> {
            if (!"no".equals(service.get("restart"))) {
                assertThat(service).as(name + " (one-shots aside)").containsKey("healthcheck");
            }
        });
        for (String name : SERVICES) {
            Map<String, Object> service = services().get(name);
            assertThat(service).as(name + " runs the built image").containsEntry("image", "seckill:local");
            assertThat(Duration.ofSeconds(seconds((String) service.get("stop_grace_period"))))
                    .as(name)
                    .isGreaterThan(LONGEST_SHUTDOWN);
            String port = (String) environment(service).get("SECKILL_MANAGEMENT_PORT");
            assertThat(healthcheck(service)).as(name).isEqualTo(List.of("CMD", "bin/seckill", "ready", port));
        }
    }

    @Test
    void prometheusScrapesEveryServiceOnItsManagementPort() {
        String prometheus = CodeVariables.read(REPO.resolve("compose/prometheus.yml"));
        for (String name : SERVICES) {
            assertThat(prometheus)
                    .contains("\"" + name + ":"
                            + environment(services().get(name)).get("SECKILL_MANAGEMENT_PORT") + "\"");
        }
    }

    @Test
    void theGrafanaDashboardIsValidJsonWithPanelsOnTheBusinessFigures() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(CodeVariables.read(REPO.resolve("compose/grafana/dashboards/seckill.json")));
        String queries = dashboard.path("panels").findValues("expr").toString();
        assertThat(queries)
                .contains(
                        "seckill_orders_decided_total",
                        "seckill_consumer_group_lag",
                        "seckill_outbox_backlog",
                        "seckill_sku_pending_reservations",
                        "seckill_sku_drift",
                        "seckill_dead_letters_total");
    }

    @Test
    void imagesAreTheReleasesTheBuildUses() {
        String pom = CodeVariables.read(REPO.resolve("pom.xml"));
        String kafka = only(Pattern.compile("<kafka.version>([^<]+)</kafka.version>"), pom);
        String java = only(Pattern.compile("<maven.compiler.release>([^<]+)</maven.compiler.release>"), pom);
        assertThat(services().get("kafka").get("image")).isEqualTo("apache/kafka:" + kafka);
        assertThat(CodeVariables.read(
                        REPO.resolve("tools/local-infra/src/main/java/io/seckill/localinfra/Containers.java")))
                .contains("\"apache/kafka:" + kafka + "\"");
        String dockerfile = CodeVariables.read(REPO.resolve("Dockerfile"));
        assertThat(dockerfile)
                .contains("FROM maven:3.9-eclipse-temurin-" + java + " AS build")
                .contains("FROM eclipse-temurin:" + java + "-jre");
    }

    /**
     * Compose runs a Redis with the Lua fixes the services insist on in production, admins with a key of their own, the
     * clear named as the one-host risk it is, and builds its image without the production secrets in the context.
     */
    @Test
    void composeRunsAFixedRedisAdminsApartAndBuildsWithoutItsSecrets() {
        String redis = String.valueOf(services().get("redis").get("image"));
        assertThat(RedisRelease.lacking("redis_version:" + redis.substring(redis.indexOf(':') + 1)))
                .as(redis)
                .isEmpty();
        assertThat(CodeVariables.read(
                        REPO.resolve("tools/local-infra/src/main/java/io/seckill/localinfra/Containers.java")))
                .contains("\"" + redis + "\"");
        Map<String, Object> ingress = environment(services().get("ingress-api"));
        assertThat(ingress).containsKeys(TokenSettings.ADMIN_SECRET, TokenSettings.ADMIN_ISSUER);
        assertThat(String.valueOf(ingress.get(TokenSettings.ADMIN_SECRET)))
                .isNotEqualTo(String.valueOf(ingress.get(TokenSettings.SECRET)));
        for (String name : SERVICES) {
            assertThat(environment(services().get(name))).as(name).containsEntry(PlaintextNetwork.SETTING, "true");
        }
        assertThat(CodeVariables.read(REPO.resolve(".dockerignore")).lines()).contains(".env");
    }

    /** Built by the package phase before this module's tests; the image ships each next to its jar. */
    @Test
    void everyServiceHasACycloneDxSbomOfWhatItShipsAndTheImageCarriesIt() throws IOException {
        Map<String, String> mainLibrary = Map.of(
                "ingress-api",
                "javalin",
                "stream-processor",
                "kafka-streams",
                "db-sink",
                "jooq",
                "reconciler",
                "kafka-clients");
        String dockerfile = CodeVariables.read(REPO.resolve("Dockerfile"));
        for (String name : SERVICES) {
            JsonNode bom = new ObjectMapper()
                    .readTree(CodeVariables.read(
                            REPO.resolve("services").resolve(name).resolve("target/bom.json")));
            assertThat(bom.path("bomFormat").asText()).as(name).isEqualTo("CycloneDX");
            assertThat(bom.path("metadata").path("component").path("name").asText()).as(name).isEqualTo(name);
            assertThat(bom.path("components").findValuesAsText("name")).as(name).contains(mainLibrary.get(name));
            assertThat(dockerfile)
                    .contains("COPY --from=build /src/services/" + name + "/target/bom.json services/" + name
                            + "/target/");
        }
    }

    /** The operators' ACL file for Redis is the catalogue's, user by user: what a production Redis is given. */
    @Test
    void operationsGivesEachRedisUserTheCataloguesRules() {
        String operations = CodeVariables.read(REPO.resolve("docs/operations.md"));
        for (RedisUser user : RedisUser.values()) {
            assertThat(operations).contains("user " + user.user() + " reset on >PASSWORD " + user.rules() + "\n");
        }
    }

    /**
     * What {@code docker compose config} does with no {@code .env}, read from the file: every secret is a
     * required reference ({@code ${NAME:?message}}), so compose refuses to start naming each missing one, and
     * {@code .env.example} lists each with no value.
     */
    @Test
    void composeHoldsNoSecretAndRefusesToStartWithoutEachOne() {
        String file = CodeVariables.read(REPO.resolve("docker-compose.yml"));
        Set<String> required = CodeVariables.matches(REQUIRED_REFERENCE, file);
        assertThat(required)
                .contains(
                        "MYSQL_ROOT_PASSWORD",
                        "SECKILL_MIGRATION_MYSQL_PASSWORD",
                        "MYSQL_INGRESS_PASSWORD",
                        "MYSQL_ADMIN_PASSWORD",
                        "MYSQL_DB_SINK_PASSWORD",
                        "MYSQL_RECONCILER_PASSWORD",
                        "REDIS_INGRESS_PASSWORD",
                        "REDIS_RECONCILER_PASSWORD",
                        "SECKILL_TOKEN_SECRET",
                        "SECKILL_TOKEN_ISSUER",
                        "SECKILL_ADMIN_TOKEN_SECRET",
                        "SECKILL_ADMIN_TOKEN_ISSUER",
                        "GRAFANA_ADMIN_PASSWORD",
                        "KAFKA_BROKER_PASSWORD",
                        "KAFKA_OPERATOR_PASSWORD",
                        "KAFKA_INGRESS_PASSWORD",
                        "KAFKA_STREAM_PROCESSOR_PASSWORD",
                        "KAFKA_DB_SINK_PASSWORD",
                        "KAFKA_RECONCILER_PASSWORD",
                        "KAFKA_TRANSACTION_REPAIR_PASSWORD");
        Matcher references = Pattern.compile("\\$\\{([A-Z_]+):\\?([^}]*)\\}").matcher(file);
        while (references.find()) {
            assertThat(references.group(2))
                    .as("the refusal names " + references.group(1))
                    .contains(references.group(1));
        }
        services()
                .forEach((name, service) -> environment(service).forEach((variable, value) -> {
                    if (SECRET_NAME.matcher(variable).find()) {
                        assertThat(String.valueOf(value))
                                .as(name + " " + variable + " is a required reference, never a value")
                                .matches("\\$\\{[A-Z_]+:\\?[^}]+\\}");
                    }
                }));
        assertThat(String.valueOf(environment(services().get("ingress-api")).get("SECKILL_REDIS_URL")))
                .startsWith("redis://" + RedisUser.INGRESS.user() + ":${REDIS_INGRESS_PASSWORD:?");
        assertThat(String.valueOf(environment(services().get("reconciler")).get("SECKILL_REDIS_URL")))
                .startsWith("redis://" + RedisUser.RECONCILER.user() + ":${REDIS_RECONCILER_PASSWORD:?");
        String example = CodeVariables.read(REPO.resolve(".env.example"));
        for (String name : required) {
            assertThat(example)
                    .as(".env.example lists " + name + " for the user to set")
                    .containsPattern("(?m)^" + name + "=$");
        }
        assertThat(CodeVariables.read(REPO.resolve(".gitignore"))).containsPattern("(?m)^\\.env$");
    }

    /**
     * No container gains a privilege: none keeps a Linux capability but what a server image's entrypoint needs to hand
     * its data to its user, none may gain one through a setuid binary, and the services' roots are read-only.
     */
    @Test
    void everyContainerDropsItsCapabilitiesAndTheServicesRunReadOnly() {
        services().forEach((name, service) -> {
            assertThat(service.get("cap_drop")).as(name).isEqualTo(List.of("ALL"));
            assertThat(service.get("security_opt")).as(name).isEqualTo(List.of("no-new-privileges:true"));
            @SuppressWarnings("unchecked")
            List<String> added = (List<String>) service.getOrDefault("cap_add", List.of());
            assertThat(added).as(name).isSubsetOf("CHOWN", "DAC_OVERRIDE", "FOWNER", "SETGID", "SETUID");
            if ("seckill:local".equals(service.get("image"))) {
                assertThat(service.get("read_only")).as(name).isEqualTo(true);
                assertThat(added).as(name).isEmpty();
            }
        });
    }

    @Test
    void onlyTheBuyersPortIsPublishedBeyondThisHostAndEveryImageIsAVersion() {
        services().forEach((name, service) -> {
            @SuppressWarnings("unchecked")
            List<String> ports = (List<String>) service.getOrDefault("ports", List.of());
            for (String port : ports) {
                assertThat(port).as(name).satisfiesAnyOf(published -> assertThat(published).startsWith("127.0.0.1:"),
                        published -> assertThat(name + " " + published).isEqualTo("ingress-api 8080:8080"));
            }
            if (Set.of("mysql", "redis", "kafka").contains(name)) {
                assertThat(ports).as(name + " is reached by the services only").isEmpty();
            }
            String image = (String) service.get("image");
            if (!"seckill:local".equals(image)) {
                assertThat(image).as(name).matches("[a-z/]+:v?\\d+\\.\\d+\\.\\d+");
            }
        });
        Map<String, Object> grafana = environment(services().get("grafana"));
        assertThat(grafana)
                .containsEntry("GF_AUTH_ANONYMOUS_ENABLED", "false")
                .containsKey("GF_SECURITY_ADMIN_PASSWORD");
        String redis = String.valueOf(services().get("redis").get("entrypoint"));
        assertThat(redis).contains("user default off").contains("--aclfile")
                .doesNotContain("requirepass").contains("--maxmemory ").contains("--maxmemory-policy volatile-lru");
        for (RedisUser user : RedisUser.values()) {
            assertThat(redis)
                    .as("each service's Redis user has the catalogue's rules, no more")
                    .contains("user " + user.user() + " reset on #%s " + user.rules() + "\\n");
        }
        assertThat(redis).as("the ACL file holds each password's SHA-256, never the password")
                .doesNotContain(" >%s").contains("sha256sum");
        assertThat(redis).doesNotContain("+@all").doesNotContain("~*");
        Map<String, String> mysqlPasswords = Map.of(
                "ingress-api",
                "MYSQL_INGRESS_PASSWORD",
                "db-sink",
                "MYSQL_DB_SINK_PASSWORD",
                "reconciler",
                "MYSQL_RECONCILER_PASSWORD");
        for (String name : SERVICES) {
            // Each its own account (the default of SECKILL_MYSQL_USER), with a password of its own; the
            // stream-processor none.
            assertThat(environment(services().get(name)))
                    .as(name)
                    .doesNotContainKey("SECKILL_MYSQL_USER")
                    .doesNotContainKey("SECKILL_MIGRATION_MYSQL_USER");
            if (mysqlPasswords.containsKey(name)) {
                assertThat(String.valueOf(environment(services().get(name)).get("SECKILL_MYSQL_PASSWORD")))
                        .as(name + "'s MySQL password")
                        .startsWith("${" + mysqlPasswords.get(name) + ":?");
            } else {
                assertThat(environment(services().get(name)))
                        .as(name + " uses no MySQL")
                        .doesNotContainKey("SECKILL_MYSQL_PASSWORD");
            }
            assertThat(String.valueOf(services().get(name).get("depends_on")))
                    .as(name + " waits for the schema")
                    .contains("migrate");
            assertThat(String.valueOf(services().get(name).get("depends_on")))
                    .as(name + " waits for its Kafka login and ACLs")
                    .contains("kafka-acls");
            assertThat(environment(services().get(name)))
                    .as(name + " logs in to Kafka")
                    .containsEntry("SECKILL_KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT")
                    .doesNotContainKey("SECKILL_KAFKA_USER");
            assertThat(String.valueOf(environment(services().get(name)).get("SECKILL_KAFKA_PASSWORD")))
                    .as(name + " has a password of its own")
                    .contains("KAFKA_"
                            + name.replace("-api", "").replace('-', '_').toUpperCase(java.util.Locale.ROOT)
                            + "_PASSWORD");
        }
        assertThat(String.valueOf(environment(services().get("ingress-api")).get("SECKILL_ADMIN_MYSQL_PASSWORD")))
                .as("the admin listener's own")
                .startsWith("${MYSQL_ADMIN_PASSWORD:?");
        Map<String, Object> kafka = environment(services().get("kafka"));
        assertThat(kafka)
                .containsEntry("KAFKA_AUTHORIZER_CLASS_NAME", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .containsEntry("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "false");
        assertThat(String.valueOf(kafka.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP")))
                .as("every listener authenticates")
                .doesNotContainPattern(":PLAINTEXT");
        assertThat(services().get("kafka-acls").get("command")).isEqualTo(List.of("kafka-acls", "--apply"));
        assertThat(services().get("migrate").get("command")).isEqualTo(List.of("migrate"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services() {
        Map<String, Object> compose = new Yaml().load(CodeVariables.read(REPO.resolve("docker-compose.yml")));
        return (Map<String, Map<String, Object>>) compose.get("services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> environment(Map<String, Object> service) {
        return (Map<String, Object>) service.getOrDefault("environment", Map.of());
    }

    @SuppressWarnings("unchecked")
    private static List<String> healthcheck(Map<String, Object> service) {
        return (List<String>) ((Map<String, Object>) service.get("healthcheck")).get("test");
    }

    private static long seconds(String composeDuration) {
        assertThat(composeDuration).matches("\\d+s");
        return Long.parseLong(composeDuration.substring(0, composeDuration.length() - 1));
    }


    private static String only(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        assertThat(matcher.find()).as("%s in pom.xml", pattern).isTrue();
        return matcher.group(1);
    }
}
