package io.seckill.config;

import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.scram.ScramLoginModule;

/** Where Kafka is and how a client gets in: {@code SECKILL_KAFKA_BOOTSTRAP} and the {@link KafkaSecurity} settings. */
public record KafkaAccess(String bootstrap, KafkaSecurity security) {

    /** The same brokers, reached as {@code other} says (e.g. another principal's login). */
    public KafkaAccess as(KafkaSecurity other) {
        return new KafkaAccess(bootstrap, other);
    }

    /**
     * The settings every client (producer, consumer, Streams, admin) starts from: the one place its security is set.
     */
    public Properties clientProperties() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, security.protocol().name());
        security.sasl().ifPresent(login -> {
            props.put(SaslConfigs.SASL_MECHANISM, login.mechanism().kafkaName());
            props.put(
                    SaslConfigs.SASL_JAAS_CONFIG,
                    ScramLoginModule.class.getName() + " required username=\"" + jaasQuoted(login.user())
                            + "\" password=\"" + jaasQuoted(login.password()) + "\";");
        });
        security.truststore().ifPresent(store -> {
            props.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, store.location());
            props.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, store.type());
            store.password().ifPresent(password -> props.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, password));
        });
        security.keystore().ifPresent(store -> {
            props.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, store.location());
            props.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, store.type());
            store.password().ifPresent(password -> props.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, password));
        });
        return props;
    }

    /**
     * A JAAS option value inside double quotes: backslashes and quotes escaped, so no password can end the option
     * early.
     */
    static String jaasQuoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public String toString() {
        return bootstrap + " (" + security + ")";
    }
}
