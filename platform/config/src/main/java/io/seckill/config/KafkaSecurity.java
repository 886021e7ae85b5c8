package io.seckill.config;

import java.util.Locale;
import java.util.Optional;

/**
 * How a client authenticates to Kafka and protects the connection, read from the environment in one place:
 *
 * <ul>
 *   <li>{@code SECKILL_KAFKA_SECURITY_PROTOCOL}: {@code SASL_SSL} (the production default), {@code SASL_PLAINTEXT} (the
 *       development default: the development broker listens on loopback), {@code SSL} (client certificates) or
 *       {@code PLAINTEXT} (no authentication: development only);</li>
 *   <li>{@code SECKILL_KAFKA_SASL_MECHANISM}: {@code SCRAM-SHA-512} (default) or {@code SCRAM-SHA-256};</li>
 *   <li>{@code SECKILL_KAFKA_USER}: the principal (default: the service's own, e.g. {@code seckill-db-sink});</li>
 *   <li>{@code SECKILL_KAFKA_PASSWORD}: its secret (in production at least 12 bytes, never a published value);</li>
 *   <li>{@code SECKILL_KAFKA_TRUSTSTORE}, {@code _TYPE} ({@code PKCS12}, {@code JKS} or {@code PEM}), {@code
 *       _PASSWORD}: the CAs the broker's certificate is checked against (default: the JVM's);</li>
 *   <li>{@code SECKILL_KAFKA_KEYSTORE}, {@code _TYPE}, {@code _PASSWORD}: the client's certificate, for {@code
 *   SSL}.</li>
 * </ul>
 */
public record KafkaSecurity(
        Protocol protocol, Optional<Sasl> sasl, Optional<Store> truststore, Optional<Store> keystore) {

    public static final String PROTOCOL = "SECKILL_KAFKA_SECURITY_PROTOCOL";
    public static final String SASL_MECHANISM = "SECKILL_KAFKA_SASL_MECHANISM";
    public static final String USER = "SECKILL_KAFKA_USER";
    public static final String PASSWORD = "SECKILL_KAFKA_PASSWORD";
    /**
     * The hanging-transaction repair's own login ({@link KafkaPrincipal#TRANSACTION_REPAIR}), apart from its service's.
     */
    public static final String REPAIR_USER = "SECKILL_KAFKA_REPAIR_USER";

    public static final String REPAIR_PASSWORD = "SECKILL_KAFKA_REPAIR_PASSWORD";
    public static final String TRUSTSTORE = "SECKILL_KAFKA_TRUSTSTORE";
    public static final String TRUSTSTORE_TYPE = "SECKILL_KAFKA_TRUSTSTORE_TYPE";
    public static final String TRUSTSTORE_PASSWORD = "SECKILL_KAFKA_TRUSTSTORE_PASSWORD";
    public static final String KEYSTORE = "SECKILL_KAFKA_KEYSTORE";
    public static final String KEYSTORE_TYPE = "SECKILL_KAFKA_KEYSTORE_TYPE";
    public static final String KEYSTORE_PASSWORD = "SECKILL_KAFKA_KEYSTORE_PASSWORD";
    /** The shortest Kafka password a production service takes. */
    public static final int MIN_PASSWORD_BYTES = 12;

    /** Kafka's {@code security.protocol}. */
    public enum Protocol {
        PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL;

        public boolean usesSasl() {
            return this == SASL_PLAINTEXT || this == SASL_SSL;
        }

        public boolean usesTls() {
            return this == SSL || this == SASL_SSL;
        }
    }

    /** The SCRAM mechanisms: the password never crosses the wire, and the broker stores only salted hashes. */
    public enum Mechanism {
        SCRAM_SHA_256("SCRAM-SHA-256"), SCRAM_SHA_512("SCRAM-SHA-512");

        private final String kafkaName;

        Mechanism(String kafkaName) {
            this.kafkaName = kafkaName;
        }

        /** The name Kafka gives it ({@code sasl.mechanism}). */
        public String kafkaName() {
            return kafkaName;
        }

        static Mechanism named(String name) {
            for (Mechanism mechanism : values()) {
                if (mechanism.kafkaName.equalsIgnoreCase(name)) {
                    return mechanism;
                }
            }
            throw new IllegalArgumentException(
                    SASL_MECHANISM + " must be SCRAM-SHA-512 or SCRAM-SHA-256, was '" + name + "'");
        }
    }

    /** A SASL login; the password is never printed. */
    public record Sasl(Mechanism mechanism, String user, String password) {
        @Override
        public String toString() {
            return mechanism.kafkaName() + " as " + user;
        }
    }

    /** A key or trust store file; its password is never printed. */
    public record Store(String location, String type, Optional<String> password) {
        @Override
        public String toString() {
            return location + " (" + type + ")";
        }
    }

    /** No authentication and no encryption: the development broker when it is asked for, never production. */
    public static KafkaSecurity plaintext() {
        return new KafkaSecurity(Protocol.PLAINTEXT, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** SCRAM over a loopback or otherwise protected network: the development servers' listener. */
    public static KafkaSecurity scram(String user, String password) {
        return new KafkaSecurity(
                Protocol.SASL_PLAINTEXT,
                Optional.of(new Sasl(Mechanism.SCRAM_SHA_512, user, password)),
                Optional.empty(),
                Optional.empty());
    }

    /**
     * The settings {@code env} gives a client acting as {@code principal} (unless {@code SECKILL_KAFKA_USER} names
     * another).
     * @throws IllegalArgumentException naming the setting: an unknown protocol or mechanism, a missing or (in
     *         production) published or short password, a production client that would not authenticate
     */
    public static KafkaSecurity from(Env env, KafkaPrincipal principal) {
        return from(env, principal, USER, PASSWORD);
    }

    /**
     * The reconciler's hanging-transaction repair: the service's protocol and stores, the repair's own login
     * ({@value #REPAIR_USER}, default {@code seckill-transaction-repair}; {@value #REPAIR_PASSWORD}, checked as every
     * password is).
     */
    public static KafkaSecurity repairFrom(Env env) {
        return from(env, KafkaPrincipal.TRANSACTION_REPAIR, REPAIR_USER, REPAIR_PASSWORD);
    }

    private static KafkaSecurity from(Env env, KafkaPrincipal principal, String userSetting, String passwordSetting) {
        DeploymentMode mode = DeploymentMode.of(env);
        Protocol protocol = protocol(env, mode);
        Optional<Sasl> sasl = Optional.empty();
        if (protocol.usesSasl()) {
            String password = switch (mode) {
                case PRODUCTION -> Secrets.required(env, mode, passwordSetting, MIN_PASSWORD_BYTES);
                case DEVELOPMENT -> env.string(passwordSetting, Secrets.DEVELOPMENT_KAFKA_PASSWORD);
            };
            sasl = Optional.of(new Sasl(
                    Mechanism.named(env.string(SASL_MECHANISM, Mechanism.SCRAM_SHA_512.kafkaName())),
                    env.string(userSetting, principal.user()),
                    password));
        }
        Optional<Store> truststore = store(env, TRUSTSTORE, TRUSTSTORE_TYPE, TRUSTSTORE_PASSWORD);
        Optional<Store> keystore = store(env, KEYSTORE, KEYSTORE_TYPE, KEYSTORE_PASSWORD);
        if ((truststore.isPresent() || keystore.isPresent()) && !protocol.usesTls()) {
            throw new IllegalArgumentException(TRUSTSTORE + " and " + KEYSTORE + " apply to SSL and SASL_SSL only; "
                    + PROTOCOL + " is " + protocol);
        }
        if (mode == DeploymentMode.PRODUCTION && protocol == Protocol.SSL && keystore.isEmpty()) {
            throw new IllegalArgumentException(
                    PROTOCOL + "=SSL without " + KEYSTORE + " would not authenticate the service; production "
                            + "clients authenticate (SASL_SSL, or SSL with a client certificate)");
        }
        return new KafkaSecurity(protocol, sasl, truststore, keystore);
    }

    private static Protocol protocol(Env env, DeploymentMode mode) {
        String name = env.string(PROTOCOL, switch (mode) {
            case PRODUCTION -> Protocol.SASL_SSL.name();
            case DEVELOPMENT -> Protocol.SASL_PLAINTEXT.name();
        });
        Protocol protocol;
        try {
            protocol = Protocol.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException(
                    PROTOCOL + " must be SASL_SSL, SASL_PLAINTEXT, SSL or PLAINTEXT, was '" + name + "'", unknown);
        }
        if (mode == DeploymentMode.PRODUCTION && protocol == Protocol.PLAINTEXT) {
            throw new IllegalArgumentException(
                    PROTOCOL + "=PLAINTEXT lets anyone who reaches the broker write any topic; production "
                            + "clients authenticate (SASL_SSL, or SSL with a client certificate)");
        }
        if (mode == DeploymentMode.PRODUCTION
                && protocol == Protocol.SASL_PLAINTEXT
                && !PlaintextNetwork.allowed(env)) {
            throw new IllegalArgumentException(
                    PROTOCOL + "=SASL_PLAINTEXT sends every order in the clear to whoever is on the path; production "
                            + "uses SASL_SSL" + PlaintextNetwork.remedy());
        }
        return protocol;
    }

    private static Optional<Store> store(Env env, String location, String type, String password) {
        return Optional.ofNullable(env.string(location, null))
                .map(file -> new Store(
                        file,
                        env.string(type, "PKCS12").toUpperCase(Locale.ROOT),
                        Optional.ofNullable(env.string(password, null))));
    }

    /** The same settings, logged in as {@code principal} (for services sharing one process, each as itself). */
    public KafkaSecurity as(KafkaPrincipal principal) {
        return new KafkaSecurity(
                protocol,
                sasl.map(login -> new Sasl(login.mechanism(), principal.user(), login.password())),
                truststore,
                keystore);
    }

    @Override
    public String toString() {
        return protocol + sasl.map(login -> " " + login).orElse("");
    }
}
