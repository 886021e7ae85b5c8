package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.dbsink.DbSinkConfig;
import io.seckill.ingress.IngressConfig;
import io.seckill.reconciler.ReconcilerConfig;
import io.seckill.streamprocessor.StreamProcessorConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's defaults are the code's: each service's settings are read, as its main reads them, from an
 * environment that sets the development mode and the secrets a service needs, and every default the code gives is
 * the one its row names.
 */
class ConfigurationDefaultsTest {

    private static final Pattern ROW =
            Pattern.compile("^\\| `(SECKILL_[A-Z0-9_]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);
    /** Secrets and passwords: development's published values are documented as such, never printed. */
    private static final Pattern SECRET = Pattern.compile("PASSWORD|SECRET");
    /** A default under the JVM's temporary directory is documented under {@code $TMPDIR}. */
    private static final String TEMP_DIRECTORY = Path.of(System.getProperty("java.io.tmpdir")).toString();

    /** Each service's settings, read as its main reads them. */
    private static final Map<String, Function<Env, Object>> SERVICES = Map.of(
            "ingress-api", env -> IngressConfig.from(env, InfraAddresses.forRedisUser(env, KafkaPrincipal.INGRESS)),
            "stream-processor",
                    env -> StreamProcessorConfig.from(env, InfraAddresses.from(env, KafkaPrincipal.STREAM_PROCESSOR)),
            "db-sink", env -> DbSinkConfig.from(env, InfraAddresses.forMySqlUser(env, KafkaPrincipal.DB_SINK)),
            "reconciler",
                    env -> ReconcilerConfig.from(env, InfraAddresses.forRedisUser(env, KafkaPrincipal.RECONCILER)));
    /** What a service cannot start without in either mode (the run command's servers.env gives development values). */
    private static final Map<String, String> REQUIRED = Map.of(
            "SECKILL_TOKEN_SECRET", "a buyers' secret of this test alone, 32+ bytes",
            "SECKILL_ADMIN_TOKEN_SECRET", "an admins' secret of this test alone, 32+ bytes");
    /** And in production: each service's own logins, and the plaintext network named (no server is reached). */
    private static final Map<String, String> PRODUCTION = Map.ofEntries(
            Map.entry("SECKILL_MODE", "production"),
            Map.entry("SECKILL_TOKEN_ISSUER", "this-test"),
            Map.entry("SECKILL_ADMIN_TOKEN_ISSUER", "this-test-admins"),
            Map.entry("SECKILL_MYSQL_PASSWORD", "the buyers' password of this test"),
            Map.entry("SECKILL_ADMIN_MYSQL_PASSWORD", "the admins' password of this test"),
            Map.entry("SECKILL_KAFKA_PASSWORD", "the Kafka password of this test"),
            Map.entry("SECKILL_KAFKA_REPAIR_PASSWORD", "the repair's password of this test"),
            Map.entry("SECKILL_REDIS_URL", "redis://a-user:a-password-of-this-test@localhost:6379"),
            Map.entry("SECKILL_ALLOW_PLAINTEXT_NETWORK", "true"));

    @Test
    void everyDefaultTheServicesGiveIsTheOneTheReferenceNames() {
        Map<String, String> documented = new TreeMap<>();
        Matcher rows = ROW.matcher(CodeVariables.read(CodeVariables.REPO.resolve("docs/configuration.md")));
        while (rows.find()) {
            documented.put(rows.group(1), rows.group(2));
        }
        Map<String, Set<String>> given = new TreeMap<>();
        for (Map<String, String> mode : List.of(Map.of("SECKILL_MODE", "development"), PRODUCTION)) {
            Map<String, String> settings = new HashMap<>(REQUIRED);
            settings.putAll(mode);
            Env env = new Env(settings).observed((name, value) -> given.computeIfAbsent(name, unseen -> new TreeSet<>())
                    .add(value.replace(TEMP_DIRECTORY, "$TMPDIR")));
            SERVICES.forEach((service, read) -> assertThat(read.apply(env))
                    .as("%s in %s", service, mode.get("SECKILL_MODE"))
                    .isNotNull());
        }
        given.keySet().removeIf(name -> SECRET.matcher(name).find());
        given.values().forEach(values -> values.remove(""));
        given.values().removeIf(Set::isEmpty);

        assertThat(given).hasSizeGreaterThan(50);
        SoftAssertions softly = new SoftAssertions();
        given.forEach((name, values) -> {
            softly.assertThat(documented).as(name).containsKey(name);
            for (String each : values) {
                softly.assertThat(documented.getOrDefault(name, ""))
                        .as("%s's default", name)
                        .contains("`" + each + "`");
            }
        });
        softly.assertAll();
    }
}
