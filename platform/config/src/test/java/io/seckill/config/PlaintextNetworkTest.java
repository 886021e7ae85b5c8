package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A production service reaches Kafka, MySQL and Redis over verified TLS, Redis as an ACL user of its own; the clear
 * only where {@value PlaintextNetwork#SETTING} names the risk. Development is not asked.
 */
class PlaintextNetworkTest {

    private static final String PASSWORD = "a-password-of-our-own-0123";
    private static final String VERIFIED_MYSQL = "jdbc:mysql://mysql.internal:3306/seckill?sslMode=VERIFY_IDENTITY";
    private static final String REDIS_USER = "rediss://seckill-ingress:" + PASSWORD + "@redis.internal:6379";

    private static Env production(String... settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                InfraAddresses.MYSQL_PASSWORD,
                PASSWORD,
                KafkaSecurity.PASSWORD,
                PASSWORD,
                InfraAddresses.MYSQL_URL,
                VERIFIED_MYSQL,
                RedisAddress.URL,
                REDIS_USER));
        for (int i = 0; i < settings.length; i += 2) {
            all.put(settings[i], settings[i + 1]);
        }
        return new Env(all);
    }

    @Test
    void productionOverVerifiedTlsAsItsOwnRedisUserStarts() {
        InfraAddresses addresses = InfraAddresses.forRedisUser(production(), KafkaPrincipal.INGRESS);

        assertThat(addresses.kafka().security().protocol()).isEqualTo(KafkaSecurity.Protocol.SASL_SSL);
        assertThat(addresses.redis().tls()).isTrue();
        assertThat(InfraAddresses.forMySqlUser(
                                production(
                                        InfraAddresses.MYSQL_URL,
                                        "jdbc:mysql://m:3306/seckill?useSSL=true&sslMode=verify_ca"),
                                KafkaPrincipal.DB_SINK)
                        .mysqlUrl())
                .contains("verify_ca");
    }

    @Test
    void productionRefusesEachPathInTheClearNamingItsSettingAndTheWayOut() {
        assertThatThrownBy(() -> InfraAddresses.forRedisUser(
                        production(KafkaSecurity.PROTOCOL, "SASL_PLAINTEXT"), KafkaPrincipal.INGRESS))
                .hasMessageContaining(KafkaSecurity.PROTOCOL)
                .hasMessageContaining(PlaintextNetwork.SETTING);
        for (String url : new String[] {"jdbc:mysql://m:3306/seckill", "jdbc:mysql://m:3306/seckill?sslMode=REQUIRED",
                "jdbc:mysql://m:3306/seckill?sslMode=PREFERRED&x=VERIFY_IDENTITY"}) {
            assertThatThrownBy(() -> InfraAddresses.forMySqlUser(
                            production(InfraAddresses.MYSQL_URL, url), KafkaPrincipal.DB_SINK))
                    .as(url)
                    .hasMessageContaining(InfraAddresses.MYSQL_URL)
                    .hasMessageContaining(PlaintextNetwork.SETTING)
                    .hasMessageNotContaining(PASSWORD);
        }
        assertThatThrownBy(() -> InfraAddresses.forRedisUser(
                        production(RedisAddress.URL, "redis://seckill-ingress:" + PASSWORD + "@redis:6379"),
                        KafkaPrincipal.INGRESS))
                .hasMessageContaining(RedisAddress.URL)
                .hasMessageContaining("rediss://")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void productionReachesRedisAsAUserOfItsOwnWithAPassword() {
        for (String url : new String[] {
            "rediss://redis:6379", "rediss://:" + PASSWORD + "@redis:6379", "rediss://seckill-ingress:@redis:6379"
        }) {
            assertThatThrownBy(() ->
                            InfraAddresses.forRedisUser(production(RedisAddress.URL, url), KafkaPrincipal.INGRESS))
                    .as(url)
                    .hasMessageContaining(RedisAddress.URL)
                    .hasMessageContaining("ACL user")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    /** The Redis user's password is a secret like every other: a published or a short one does not start. */
    @Test
    void productionRefusesAPublishedOrShortRedisPasswordWithoutPrintingIt() {
        for (String password : new String[] {Secrets.DEVELOPMENT_REDIS_PASSWORD, "short-pw"}) {
            String url = "rediss://seckill-ingress:" + password + "@redis.internal:6379";
            assertThatThrownBy(() ->
                            InfraAddresses.forRedisUser(production(RedisAddress.URL, url), KafkaPrincipal.INGRESS))
                    .as(password)
                    .hasMessageContaining(RedisAddress.URL + "'s password")
                    .hasMessageNotContaining(password);
        }
        assertThat(InfraAddresses.forRedisUser(
                                new Env(Map.of(RedisAddress.URL, "redis://seckill-ingress:"
                                        + Secrets.DEVELOPMENT_REDIS_PASSWORD + "@127.0.0.1:6379",
                                        DeploymentMode.SETTING, "development")),
                                KafkaPrincipal.INGRESS)
                        .redis()
                        .password())
                .as("development takes the published password")
                .contains(Secrets.DEVELOPMENT_REDIS_PASSWORD);
    }

    @Test
    void namingTheRiskAllowsTheClearButNeverAnAnonymousRedis() {
        Env oneHost = production(
                PlaintextNetwork.SETTING,
                "true",
                KafkaSecurity.PROTOCOL,
                "SASL_PLAINTEXT",
                InfraAddresses.MYSQL_URL,
                "jdbc:mysql://mysql:3306/seckill",
                RedisAddress.URL,
                "redis://seckill-ingress:" + PASSWORD + "@redis:6379");
        assertThat(InfraAddresses.forRedisUser(oneHost, KafkaPrincipal.INGRESS)
                        .kafka()
                        .security()
                        .protocol())
                .isEqualTo(KafkaSecurity.Protocol.SASL_PLAINTEXT);
        assertThatThrownBy(() -> InfraAddresses.forRedisUser(
                        production(PlaintextNetwork.SETTING, "true", RedisAddress.URL, "redis://redis:6379"),
                        KafkaPrincipal.INGRESS))
                .hasMessageContaining("ACL user");
        assertThatThrownBy(() -> PlaintextNetwork.allowed(new Env(Map.of(PlaintextNetwork.SETTING, "yes"))))
                .hasMessageContaining(PlaintextNetwork.SETTING);
    }

    @Test
    void developmentIsNotAsked() {
        Env development = new Env(Map.of(DeploymentMode.SETTING, "development"));
        assertThat(InfraAddresses.forRedisUser(development, KafkaPrincipal.INGRESS).redis().tls()).isFalse();
    }
}
