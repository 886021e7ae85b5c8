package io.seckill.config;

/**
 * Where the three servers are, the MySQL account services connect as (the application account: DML on
 * the tables it uses, nothing else) and how they get into Kafka (each service as its own principal). Every service reads
 * the same names: SECKILL_MYSQL_URL, SECKILL_MYSQL_USER, SECKILL_MYSQL_PASSWORD, the {@link RedisAddress} settings,
 * SECKILL_KAFKA_BOOTSTRAP and the {@link KafkaSecurity} settings.
 */
public record InfraAddresses(String mysqlUrl, String mysqlUser, String mysqlPassword, RedisAddress redis, KafkaAccess kafka) {

    public static final String MYSQL_URL = "SECKILL_MYSQL_URL";
    public static final String MYSQL_USER = "SECKILL_MYSQL_USER";
    public static final String MYSQL_PASSWORD = "SECKILL_MYSQL_PASSWORD";
    public static final String KAFKA_BOOTSTRAP = "SECKILL_KAFKA_BOOTSTRAP";

    /** The shortest MySQL password a production service takes. */
    public static final int MIN_MYSQL_PASSWORD_BYTES = 12;

    /**
     * For a service that connects to MySQL: in production its password is a secret ({@link Secrets#required}: set, long
     * enough, never a published development value), checked before anything listens.
     */
    public static InfraAddresses forMySqlUser(Env env, KafkaPrincipal principal) {
        DeploymentMode mode = DeploymentMode.of(env);
        return switch (mode) {
            case PRODUCTION -> {
                Secrets.required(env, mode, MYSQL_PASSWORD, MIN_MYSQL_PASSWORD_BYTES);
                yield from(env, principal);
            }
            case DEVELOPMENT -> from(env, principal);
        };
    }

    /** The servers {@code env} names, Kafka reached as {@code principal} unless SECKILL_KAFKA_USER names another. */
    public static InfraAddresses from(Env env, KafkaPrincipal principal) {
        return new InfraAddresses(mysqlUrl(env), mysqlUser(env), env.string(MYSQL_PASSWORD, ""),
                RedisAddress.from(env),
                new KafkaAccess(env.string(KAFKA_BOOTSTRAP, "localhost:9092"), KafkaSecurity.from(env, principal)));
    }

    /** SECKILL_MYSQL_URL. */
    public static String mysqlUrl(Env env) {
        return env.string(MYSQL_URL, "jdbc:mysql://localhost:3306/seckill");
    }

    /** SECKILL_MYSQL_USER: the application account. */
    public static String mysqlUser(Env env) {
        return env.string(MYSQL_USER, "seckill_app");
    }

    /**
     * The servers {@code env} names, MySQL as its migration account and Kafka as the operator: for tools that stage or
     * inspect what the services cannot (test and benchmark harnesses, the baseline designs with tables of their own).
     */
    public static InfraAddresses ofMigrationAccount(Env env) {
        return from(env, KafkaPrincipal.OPERATOR)
                .as(MigrationAccount.from(env).orElseThrow(() -> new IllegalArgumentException(MigrationAccount.USER + " is not set")));
    }

    /** The same servers, MySQL reached as {@code account} (e.g. the migration account's). */
    public InfraAddresses as(MigrationAccount account) {
        return new InfraAddresses(mysqlUrl, account.user(), account.password(), redis, kafka);
    }

    /** The same servers, Kafka reached as {@code principal} (the same security settings, its own login). */
    public InfraAddresses as(KafkaPrincipal principal) {
        return withKafka(kafka.security().as(principal));
    }

    /** The same servers, Kafka reached as {@code security} says. */
    public InfraAddresses withKafka(KafkaSecurity security) {
        return new InfraAddresses(mysqlUrl, mysqlUser, mysqlPassword, redis, kafka.as(security));
    }

    public String kafkaBootstrap() {
        return kafka.bootstrap();
    }

    @Override
    public String toString() {
        return "mysql=" + mysqlUrl + " (user " + mysqlUser + "), redis=" + redis + ", kafka=" + kafka;
    }
}
