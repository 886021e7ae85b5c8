package io.seckill.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where the three servers are, the MySQL account a service connects as (its own {@link MySqlAccount}: the statements
 * its code runs on the tables it uses, nothing else) and how it gets into Kafka (each service as its own principal).
 * Every service reads the same names: SECKILL_MYSQL_URL, SECKILL_MYSQL_USER, SECKILL_MYSQL_PASSWORD, the {@link
 * RedisAddress} settings, SECKILL_KAFKA_BOOTSTRAP and the {@link KafkaSecurity} settings.
 */
public record InfraAddresses(
        String mysqlUrl, String mysqlUser, String mysqlPassword, RedisAddress redis, KafkaAccess kafka) {

    public static final String MYSQL_URL = "SECKILL_MYSQL_URL";
    public static final String MYSQL_USER = "SECKILL_MYSQL_USER";
    public static final String MYSQL_PASSWORD = "SECKILL_MYSQL_PASSWORD";
    public static final String KAFKA_BOOTSTRAP = "SECKILL_KAFKA_BOOTSTRAP";
    public static final String ADMIN_MYSQL_USER = "SECKILL_ADMIN_MYSQL_USER";
    public static final String ADMIN_MYSQL_PASSWORD = "SECKILL_ADMIN_MYSQL_PASSWORD";
    private static final Pattern AMPERSAND = Pattern.compile("&");

    /** The shortest MySQL password a production service takes. */
    public static final int MIN_MYSQL_PASSWORD_BYTES = 12;
    /** The shortest Redis password a production service takes. */
    public static final int MIN_REDIS_PASSWORD_BYTES = 12;

    /**
     * For a service that connects to MySQL: in production its password is a secret ({@link Secrets#required}: set, long
     * enough, never a published development value) and its URL verifies the server's certificate (unless
     * {@link PlaintextNetwork} names the risk), checked before anything listens.
     */
    public static InfraAddresses forMySqlUser(Env env, KafkaPrincipal principal) {
        DeploymentMode mode = DeploymentMode.of(env);
        return switch (mode) {
            case PRODUCTION -> {
                Secrets.required(env, mode, MYSQL_PASSWORD, MIN_MYSQL_PASSWORD_BYTES);
                if (!verifiesServer(mysqlUrl(env)) && !PlaintextNetwork.allowed(env)) {
                    throw new IllegalArgumentException(
                            MYSQL_URL + " does not verify the server's certificate: production asks for TLS with "
                                    + "sslMode=VERIFY_IDENTITY (or VERIFY_CA) in the URL" + PlaintextNetwork.remedy());
                }
                yield from(env, principal);
            }
            case DEVELOPMENT -> from(env, principal);
        };
    }

    /**
     * For a service that also uses Redis: besides {@link #forMySqlUser}'s checks, in production Redis is reached as a
     * user of its own with a password (an ACL user: {@code redis://USER:PASSWORD@host:port}), never as the all-powerful
     * default user or with no password, its password a secret like any other (long enough, never a published
     * development value), and over TLS ({@code rediss://}) unless {@link PlaintextNetwork} names the
     * risk.
     */
    public static InfraAddresses forRedisUser(Env env, KafkaPrincipal principal) {
        InfraAddresses addresses = forMySqlUser(env, principal);
        if (DeploymentMode.of(env) == DeploymentMode.PRODUCTION) {
            if (!addresses.redis().namesUserAndPassword()) {
                throw new IllegalArgumentException(RedisAddress.URL
                        + " names no user and password: production reaches Redis as the service's own ACL "
                        + "user (redis://USER:PASSWORD@host:port), which may run only what the service runs");
            }
            Secrets.checked(
                    RedisAddress.URL + "'s password",
                    addresses.redis().password().orElseThrow(),
                    DeploymentMode.PRODUCTION,
                    MIN_REDIS_PASSWORD_BYTES);
            if (!addresses.redis().tls() && !PlaintextNetwork.allowed(env)) {
                throw new IllegalArgumentException(RedisAddress.URL
                        + " is not TLS: production reaches Redis over rediss://" + PlaintextNetwork.remedy());
            }
        }
        return addresses;
    }

    /** Whether a MySQL Connector/J URL asks for TLS and checks the server's certificate. */
    static boolean verifiesServer(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        if (query < 0) {
            return false;
        }
        for (String parameter : AMPERSAND.split(jdbcUrl.substring(query + 1), -1)) {
            int equals = parameter.indexOf('=');
            if (equals > 0 && parameter.substring(0, equals).equalsIgnoreCase("sslMode")) {
                String value = parameter.substring(equals + 1).toUpperCase(Locale.ROOT);
                return value.equals("VERIFY_IDENTITY") || value.equals("VERIFY_CA");
            }
        }
        return false;
    }

    /**
     * The servers {@code env} names, MySQL reached as the service's own account and Kafka as {@code principal}, unless
     * SECKILL_MYSQL_USER or SECKILL_KAFKA_USER names another.
     */
    public static InfraAddresses from(Env env, KafkaPrincipal principal) {
        return new InfraAddresses(mysqlUrl(env), mysqlUser(env, principal), env.string(MYSQL_PASSWORD, ""),
                RedisAddress.from(env),
                new KafkaAccess(env.string(KAFKA_BOOTSTRAP, "localhost:9092"), KafkaSecurity.from(env, principal)));
    }

    /** SECKILL_MYSQL_USER, by default the account of the service whose Kafka principal is {@code principal}. */
    public static String mysqlUser(Env env, KafkaPrincipal principal) {
        return env.string(MYSQL_USER, MySqlAccount.of(principal).map(MySqlAccount::user).orElse(""));
    }

    /** SECKILL_MYSQL_URL. */
    public static String mysqlUrl(Env env) {
        return env.string(MYSQL_URL, "jdbc:mysql://localhost:3306/seckill");
    }

    /**
     * The servers {@code env} names, MySQL as its migration account and Kafka as the operator: for tools that stage or
     * inspect what the services cannot (test and benchmark harnesses, the baseline designs with tables of their own).
     */
    public static InfraAddresses ofMigrationAccount(Env env) {
        return from(env, KafkaPrincipal.OPERATOR)
                .as(MigrationAccount.from(env)
                        .orElseThrow(() -> new IllegalArgumentException(MigrationAccount.USER + " is not set")));
    }

    /** The same servers, MySQL reached as {@code account} (e.g. the migration account's). */
    public InfraAddresses as(MigrationAccount account) {
        return asMySqlUser(account.user(), account.password());
    }

    /** The same servers, MySQL reached as {@code user}. */
    public InfraAddresses asMySqlUser(String user, String password) {
        return new InfraAddresses(mysqlUrl, user, password, redis, kafka);
    }

    /**
     * The same servers as the service whose principal is {@code principal} reaches them when several run in one process
     * on one password (a development system): Kafka as that principal, MySQL as the account {@code env} gives it.
     */
    public InfraAddresses forService(Env env, KafkaPrincipal principal) {
        return as(principal).asMySqlUser(mysqlUser(env, principal), mysqlPassword);
    }

    /**
     * The same servers as the ingress's admin listener reaches them: MySQL as an account of its own
     * (SECKILL_ADMIN_MYSQL_USER, {@link MySqlAccount#INGRESS_ADMIN} by default), which may define sales and adjust
     * stock where the buyers' account may not. In production its password is a secret of its own, never the buyers'
     * account's; in development it defaults to the services' password.
     */
    public InfraAddresses forIngressAdmin(Env env) {
        DeploymentMode mode = DeploymentMode.of(env);
        String password = switch (mode) {
            case PRODUCTION -> Secrets.required(env, mode, ADMIN_MYSQL_PASSWORD, MIN_MYSQL_PASSWORD_BYTES);
            case DEVELOPMENT -> env.string(ADMIN_MYSQL_PASSWORD, mysqlPassword);
        };
        if (mode == DeploymentMode.PRODUCTION && password.equals(mysqlPassword)) {
            throw new IllegalArgumentException(ADMIN_MYSQL_PASSWORD + " equals " + MYSQL_PASSWORD
                    + ": the admin listener's account has a password "
                    + "of its own, so that the buyers' password opens no admin's door");
        }
        return asMySqlUser(env.string(ADMIN_MYSQL_USER, MySqlAccount.INGRESS_ADMIN.user()), password);
    }

    /** The same servers, Redis reached at {@code redis} (e.g. as another user). */
    public InfraAddresses withRedis(RedisAddress redis) {
        return new InfraAddresses(mysqlUrl, mysqlUser, mysqlPassword, redis, kafka);
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
