package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Production clients authenticate over TLS unless told otherwise, each as its own principal, with a secret of their
 * own.
 */
class KafkaSecurityTest {

    private static final String PASSWORD = "a-kafka-password-of-our-own";

    @Test
    void productionDefaultsToScramOverTlsAsTheServicesOwnPrincipal() {
        KafkaSecurity security =
                KafkaSecurity.from(new Env(Map.of(KafkaSecurity.PASSWORD, PASSWORD)), KafkaPrincipal.DB_SINK);

        assertThat(security.protocol()).isEqualTo(KafkaSecurity.Protocol.SASL_SSL);
        assertThat(security.sasl())
                .contains(new KafkaSecurity.Sasl(KafkaSecurity.Mechanism.SCRAM_SHA_512, "seckill-db-sink", PASSWORD));
        assertThat(security.toString()).doesNotContain(PASSWORD);
        assertThat(KafkaSecurity.from(
                                new Env(Map.of(KafkaSecurity.PASSWORD, PASSWORD, KafkaSecurity.USER, "sink-7")),
                                KafkaPrincipal.DB_SINK)
                        .sasl()
                        .map(KafkaSecurity.Sasl::user))
                .contains("sink-7");
    }

    @Test
    void productionRefusesPlaintextAMissingOrPublishedPasswordAndSslWithoutAClientCertificate() {
        assertThatThrownBy(() -> KafkaSecurity.from(new Env(Map.of()), KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.PASSWORD);
        assertThatThrownBy(() -> KafkaSecurity.from(
                        new Env(Map.of(KafkaSecurity.PASSWORD, Secrets.DEVELOPMENT_KAFKA_PASSWORD)),
                        KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.PASSWORD)
                .hasMessageNotContaining(Secrets.DEVELOPMENT_KAFKA_PASSWORD);
        assertThatThrownBy(() -> KafkaSecurity.from(
                        new Env(Map.of(KafkaSecurity.PROTOCOL, "PLAINTEXT")), KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.PROTOCOL + "=PLAINTEXT");
        assertThatThrownBy(() ->
                        KafkaSecurity.from(new Env(Map.of(KafkaSecurity.PROTOCOL, "SSL")), KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.KEYSTORE);
        assertThatThrownBy(() -> KafkaSecurity.from(
                        new Env(Map.of(
                                KafkaSecurity.PROTOCOL,
                                "SASL_SSL",
                                KafkaSecurity.PASSWORD,
                                PASSWORD,
                                KafkaSecurity.SASL_MECHANISM,
                                "PLAIN")),
                        KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.SASL_MECHANISM);
    }

    /** The hanging-transaction repair logs in apart, as its own principal with its own password, checked as any. */
    @Test
    void theRepairLogsInAsItsOwnPrincipalWithItsOwnPassword() {
        Env reconciler = new Env(
                Map.of(KafkaSecurity.PASSWORD, PASSWORD, KafkaSecurity.REPAIR_PASSWORD, "the-repairs-own-password"));

        assertThat(KafkaSecurity.repairFrom(reconciler).sasl())
                .contains(new KafkaSecurity.Sasl(
                        KafkaSecurity.Mechanism.SCRAM_SHA_512,
                        "seckill-transaction-repair",
                        "the-repairs-own-password"));
        assertThatThrownBy(() -> KafkaSecurity.repairFrom(new Env(Map.of(KafkaSecurity.PASSWORD, PASSWORD))))
                .hasMessageContaining(KafkaSecurity.REPAIR_PASSWORD);
        assertThatThrownBy(() -> KafkaSecurity.repairFrom(
                        new Env(Map.of(KafkaSecurity.REPAIR_PASSWORD, Secrets.DEVELOPMENT_KAFKA_PASSWORD))))
                .hasMessageContaining(KafkaSecurity.REPAIR_PASSWORD)
                .hasMessageNotContaining(Secrets.DEVELOPMENT_KAFKA_PASSWORD);
    }

    @Test
    void storesApplyToTlsAndDevelopmentTakesThePublishedPasswordOverLoopbackScram() {
        KafkaSecurity tls = KafkaSecurity.from(
                new Env(Map.of(
                        KafkaSecurity.PASSWORD,
                        PASSWORD,
                        KafkaSecurity.TRUSTSTORE,
                        "/etc/seckill/ca.pem",
                        KafkaSecurity.TRUSTSTORE_TYPE,
                        "pem")),
                KafkaPrincipal.RECONCILER);
        assertThat(tls.truststore()).contains(new KafkaSecurity.Store("/etc/seckill/ca.pem", "PEM", Optional.empty()));

        Env development = new Env(Map.of(DeploymentMode.SETTING, "development"));
        KafkaSecurity local = KafkaSecurity.from(development, KafkaPrincipal.INGRESS);
        assertThat(local.protocol()).isEqualTo(KafkaSecurity.Protocol.SASL_PLAINTEXT);
        assertThat(local.sasl().map(KafkaSecurity.Sasl::password)).contains(Secrets.DEVELOPMENT_KAFKA_PASSWORD);
        assertThat(local.as(KafkaPrincipal.OPERATOR).sasl().map(KafkaSecurity.Sasl::user)).contains("seckill-operator");
        assertThatThrownBy(() -> KafkaSecurity.from(
                        new Env(Map.of(DeploymentMode.SETTING, "development", KafkaSecurity.TRUSTSTORE, "/ca.p12")),
                        KafkaPrincipal.INGRESS))
                .hasMessageContaining("SSL and SASL_SSL only");
    }
}
