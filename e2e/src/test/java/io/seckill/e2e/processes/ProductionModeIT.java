package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaSecurity;
import io.seckill.config.PlaintextNetwork;
import io.seckill.config.RedisAddress;
import io.seckill.config.Secrets;
import io.seckill.ingress.HttpApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.processdriver.SeckillProcess;
import io.seckill.runtime.ServiceMain;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Production unless told otherwise: an ingress told it runs in production refuses each published development value, an
 * unauthenticated Kafka connection and the development payment port, exits 70 with one line naming the setting and
 * never listens; started against the development servers (whose servers.env says development), it runs and says so in
 * /ready.
 */
class ProductionModeIT {

    @Test
    void inProductionEachPublishedDevelopmentValueEndsTheProcessBeforeItListens() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start("production-mode", Map.of())) {
            Map<String, Map<String, String>> refusals = Map.of(
                    TokenSettings.SECRET, Map.of(TokenSettings.SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET),
                    TokenSettings.PREVIOUS_SECRET,
                            Map.of(TokenSettings.PREVIOUS_SECRET, Secrets.DEVELOPMENT_TOKEN_SECRET),
                    TokenSettings.ADMIN_SECRET,
                            Map.of(TokenSettings.ADMIN_SECRET, Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET),
                    InfraAddresses.MYSQL_PASSWORD,
                            Map.of(InfraAddresses.MYSQL_PASSWORD, Secrets.DEVELOPMENT_APPLICATION_PASSWORD),
                    InfraAddresses.ADMIN_MYSQL_PASSWORD,
                            Map.of(InfraAddresses.ADMIN_MYSQL_PASSWORD, Secrets.DEVELOPMENT_APPLICATION_PASSWORD),
                    KafkaSecurity.PASSWORD, Map.of(KafkaSecurity.PASSWORD, Secrets.DEVELOPMENT_KAFKA_PASSWORD),
                    KafkaSecurity.PROTOCOL, Map.of(KafkaSecurity.PROTOCOL, "PLAINTEXT"),
                    IngressConfig.PAYMENT_VERIFIER, Map.of(IngressConfig.PAYMENT_VERIFIER, "development"));
            SeckillProcess development = cluster.launch("development", "ingress-api");
            Map<String, SeckillProcess> refused = new HashMap<>();
            refusals.forEach((setting, values) ->
                    refused.put(setting, cluster.launch("production-" + setting, "ingress-api", production(values))));
            for (Map.Entry<String, SeckillProcess> refusal : refused.entrySet()) {
                SeckillProcess ingress = refusal.getValue();
                await().atMost(Duration.ofMinutes(1)).until(() -> !ingress.alive());

                assertThat(ingress.exitCode()).as(refusal.getKey()).contains(ServiceMain.EXIT_CANNOT_CONTINUE);
                assertThat(ingress.output())
                        .as(refusal.getKey())
                        .contains("ingress-api refused to start: " + refusal.getKey())
                        .doesNotContain(Secrets.DEVELOPMENT_TOKEN_SECRET)
                        .doesNotContain(Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET)
                        .doesNotContain(Secrets.DEVELOPMENT_APPLICATION_PASSWORD)
                        .doesNotContain(Secrets.DEVELOPMENT_KAFKA_PASSWORD);
                assertThat(ingress.managementPort()).as(refusal.getKey() + ": nothing listened").isEmpty();
                assertThat(ingress.buyersPort()).as(refusal.getKey()).isEmpty();
            }

            ProcessCluster.awaitReady(development);
            assertThat(development.readiness().orElseThrow().body().path("mode").asText()).isEqualTo("development");
            assertThat(development.output()).contains("ingress-api starts in DEVELOPMENT mode");
        }
    }

    /** Production, with the test's own secrets but for {@code override}. */
    private static Map<String, String> production(Map<String, String> override) {
        Map<String, String> settings = new HashMap<>(Map.of(
                DeploymentMode.SETTING,
                "production",
                TokenSettings.ISSUER,
                "https://id.shop.example",
                TokenSettings.SECRET,
                HttpApi.TOKEN_SECRET,
                TokenSettings.ADMIN_ISSUER,
                "https://staff-id.shop.example",
                TokenSettings.ADMIN_SECRET,
                HttpApi.ADMIN_TOKEN_SECRET,
                InfraAddresses.MYSQL_PASSWORD,
                "a-mysql-password-nobody-published",
                InfraAddresses.ADMIN_MYSQL_PASSWORD,
                "an-admin-mysql-password-nobody-published",
                KafkaSecurity.PASSWORD,
                "a-kafka-password-nobody-published",
                IngressConfig.PAYMENT_VERIFIER,
                "none"));
        // The development servers listen on loopback without TLS, which production takes only when told; Redis as a
        // user of its own.
        settings.put(KafkaSecurity.PROTOCOL, "SASL_PLAINTEXT");
        settings.put(PlaintextNetwork.SETTING, "true");
        settings.put(RedisAddress.URL, "redis://seckill-ingress:a-redis-password-nobody-published@127.0.0.1:6379");
        settings.putAll(override);
        return settings;
    }
}
