package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;

/** The one place every client's security is set: what the settings become in Kafka's own terms. */
class KafkaAccessTest {

    @Test
    void scramOverTlsBecomesTheClientsSettingsAndAPasswordCannotBreakOutOfItsJaasOption() {
        String password = "pa\"ss\\word;x=y";
        KafkaSecurity security = KafkaSecurity.from(
                new Env(Map.of(
                        KafkaSecurity.PASSWORD,
                        password,
                        KafkaSecurity.TRUSTSTORE,
                        "/etc/ca.p12",
                        KafkaSecurity.TRUSTSTORE_PASSWORD,
                        "store-secret")),
                KafkaPrincipal.RECONCILER);

        Properties props = new KafkaAccess("kafka-1:9093,kafka-2:9093", security).clientProperties();

        assertThat(props)
                .containsEntry("bootstrap.servers", "kafka-1:9093,kafka-2:9093")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/etc/ca.p12")
                .containsEntry("ssl.truststore.type", "PKCS12")
                .containsEntry("ssl.truststore.password", "store-secret");
        Map<String, ?> login = JaasContext.loadClientContext(
                        Map.of("sasl.jaas.config", new Password(props.getProperty("sasl.jaas.config"))))
                .configurationEntries()
                .get(0)
                .getOptions();
        assertThat(Map.copyOf(login)).isEqualTo(Map.of("username", "seckill-reconciler", "password", password));
    }

    @Test
    void plaintextSetsNoLogin() {
        Properties props = new KafkaAccess("localhost:9092", KafkaSecurity.plaintext()).clientProperties();

        assertThat(props)
                .containsEntry("security.protocol", "PLAINTEXT")
                .doesNotContainKey("sasl.jaas.config")
                .doesNotContainKey("sasl.mechanism");
    }
}
