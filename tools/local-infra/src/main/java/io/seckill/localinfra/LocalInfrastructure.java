package io.seckill.localinfra;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.config.MigrationAccount;
import io.seckill.config.MySqlAccount;
import io.seckill.config.RedisAddress;
import io.seckill.config.Secrets;
import io.seckill.schemas.kafka.KafkaAcls;
import io.seckill.schemas.migration.SchemaMigration;
import io.seckill.schemas.redis.RedisUser;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One set of real servers per JVM, stopped at exit. For each of MySQL, Redis and Kafka: the address
 * given in the environment, else a server started here. Tests ({@link #get()}) get a Testcontainers
 * container when a Docker engine answers, else an embedded server with scratch data
 * ({@code SECKILL_LOCAL_INFRA=embedded} skips the Docker probe). Development ({@link #keptIn}) gets
 * embedded servers whose data and ports are kept in a {@link DataDirectory}. A MySQL started here gets
 * the migration and the application accounts ({@link DevelopmentAccounts}) and is migrated to this
 * release's schema before anything uses it.
 */
public final class LocalInfrastructure {

    public static final String MODE = "SECKILL_LOCAL_INFRA";
    /**
     * How many Kafka brokers a local Kafka has: 1 (a single node), or 3 (a KRaft cluster, each broker its own process).
     */
    public static final String KAFKA_BROKERS = "SECKILL_LOCAL_KAFKA_BROKERS";

    private static final Logger LOG = LoggerFactory.getLogger(LocalInfrastructure.class);
    private static LocalInfrastructure instance;

    private final InfraAddresses addresses;
    /**
     * Which MySQL account each service connects as: unset (each its own) on a server started here, the given one else.
     */
    private final Map<String, String> mysqlAccounts;
    /** Whether Redis has every service's ACL user ({@link RedisUser}), on the development password. */
    private final boolean redisUsers;
    private final MigrationAccount migration;
    private final Map<String, String> origins;
    private final Deque<AutoCloseable> running;

    private LocalInfrastructure(
            InfraAddresses addresses,
            Map<String, String> mysqlAccounts,
            boolean redisUsers,
            MigrationAccount migration,
            Map<String, String> origins,
            Deque<AutoCloseable> running) {
        this.addresses = addresses;
        this.mysqlAccounts = mysqlAccounts;
        this.redisUsers = redisUsers;
        this.migration = migration;
        this.origins = origins;
        this.running = running;
    }

    /** The test servers of this JVM, started on first use. */
    public static synchronized LocalInfrastructure get() {
        if (instance == null) {
            Env env = Env.system();
            boolean docker = !"embedded".equals(env.string(MODE, "")) && Containers.dockerAvailable();
            LOG.info(docker ? "Docker engine found: servers not given in the environment run as containers"
                    : "no Docker engine: servers not given in the environment run embedded");
            install(start(env, docker ? ServerKind.CONTAINERS : ServerKind.SCRATCH));
        }
        return instance;
    }

    /**
     * The development servers of {@code data}, started now; their addresses, with {@code extra}
     * settings, are written to the data directory's {@code servers.env} for the other commands.
     */
    public static synchronized LocalInfrastructure keptIn(DataDirectory data, Env env, Map<String, String> extra) {
        if (instance != null) {
            throw new IllegalStateException("this JVM already runs its servers: " + instance.origins);
        }
        LocalInfrastructure started = start(env, ServerKind.keptIn(data));
        install(started);
        Map<String, String> variables = new LinkedHashMap<>(started.variables());
        variables.putAll(extra);
        EnvFile.write(data.serversEnv(), variables);
        return started;
    }

    private static void install(LocalInfrastructure started) {
        instance = started;
        Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "local-infra-stop"));
    }

    private static LocalInfrastructure start(Env env, ServerKind kind) {
        Deque<AutoCloseable> running = new ArrayDeque<>();
        Map<String, String> origins = new LinkedHashMap<>();
        try {
            RedisAddress redis = redis(env, kind, origins, running);
            // Made with every service's ACL user: an embedded Redis (a container's and a given one are used as they
            // are).
            boolean redisUsers =
                    running.peek() instanceof EmbeddedRedis || running.peek() instanceof EmbeddedRedisCluster;
            KafkaAccess kafka = kafka(env, kind, origins, running);
            String mysqlUrl = env.string(InfraAddresses.MYSQL_URL, null);
            String password;
            Map<String, String> accounts;
            MigrationAccount migration;
            Set<MySqlAccount> grantees;
            if (mysqlUrl != null) {
                // A given server: each service connects as its own account (one the development servers made), or,
                // where SECKILL_MYSQL_USER names one, every service as that one (a bare server's owner, in a test run).
                String user = env.string(InfraAddresses.MYSQL_USER, null);
                password = env.string(InfraAddresses.MYSQL_PASSWORD, "");
                accounts = user == null
                        ? Map.of()
                        : Map.of(InfraAddresses.MYSQL_USER, user, InfraAddresses.ADMIN_MYSQL_USER, user);
                migration =
                        MigrationAccount.from(env).orElse(new MigrationAccount(user == null ? "root" : user, password));
                grantees = user == null ? EnumSet.allOf(MySqlAccount.class) : EnumSet.noneOf(MySqlAccount.class);
                origins.put("mysql", "given " + mysqlUrl);
            } else {
                MySqlServer mysql = remember(running, kind.mysql().get());
                DevelopmentAccounts.create(mysql);
                mysqlUrl = mysql.address();
                password = DevelopmentAccounts.SERVICES_PASSWORD;
                accounts = Map.of();
                migration = DevelopmentAccounts.MIGRATION;
                grantees = EnumSet.allOf(MySqlAccount.class);
                origins.put("mysql", mysqlUrl + " (" + kind.description() + ")");
            }
            int applied = SchemaMigration.apply(mysqlUrl, migration.user(), migration.password(), grantees);
            LOG.info(
                    "MySQL schema migrated as {} ({} migration(s) applied now); services connect as {}",
                    migration.user(),
                    applied,
                    accounts.isEmpty() ? "their own accounts" : accounts.get(InfraAddresses.MYSQL_USER));
            LocalInfrastructure started = new LocalInfrastructure(
                    new InfraAddresses(
                            mysqlUrl, accounts.getOrDefault(InfraAddresses.MYSQL_USER, ""), password, redis, kafka),
                    accounts,
                    redisUsers,
                    migration,
                    origins,
                    running);
            LOG.info("local infrastructure ready: {}", origins);
            return started;
        } catch (RuntimeException e) {
            new LocalInfrastructure(null, null, false, null, origins, running).stop();
            throw e;
        }
    }

    /**
     * The given brokers, reached as the environment's security settings say (the operator's principal by default); else
     * a broker started here (or, with SECKILL_LOCAL_KAFKA_BROKERS=3, a cluster of three): an embedded one with every
     * principal's SCRAM login (the published development password) and the ACL catalogue applied, reached as the
     * operator; a container, unauthenticated.
     */
    private static KafkaAccess kafka(
            Env env, ServerKind kind, Map<String, String> origins, Deque<AutoCloseable> running) {
        String given = env.string(InfraAddresses.KAFKA_BOOTSTRAP, null);
        if (given != null) {
            origins.put("kafka", "given " + given);
            return new KafkaAccess(given, KafkaSecurity.from(env, KafkaPrincipal.OPERATOR));
        }
        int brokers = env.integer(KAFKA_BROKERS, 1);
        if (brokers != 1 && brokers != EmbeddedKafkaCluster.NODES) {
            throw new IllegalArgumentException(
                    KAFKA_BROKERS + " must be 1 or " + EmbeddedKafkaCluster.NODES + ", was " + brokers);
        }
        RunningServer server = remember(running, kind.kafka().apply(brokers));
        origins.put("kafka", server.address() + " (" + kind.description() + ")");
        if (server instanceof EmbeddedBrokers embedded) {
            Map<KafkaPrincipal, String> logins = new EnumMap<>(KafkaPrincipal.class);
            for (KafkaPrincipal principal : KafkaPrincipal.values()) {
                logins.put(principal, Secrets.DEVELOPMENT_KAFKA_PASSWORD);
            }
            embedded.provision(logins, KafkaAcls.all(KafkaGroups.from(env)));
            return new KafkaAccess(
                    server.address(),
                    KafkaSecurity.scram(KafkaPrincipal.OPERATOR.user(), Secrets.DEVELOPMENT_KAFKA_PASSWORD));
        }
        return new KafkaAccess(server.address(), KafkaSecurity.plaintext());
    }

    /**
     * The given Redis (SECKILL_REDIS_URL and SECKILL_REDIS_TOPOLOGY), else one started here: a single node, or with
     * SECKILL_REDIS_TOPOLOGY=cluster a cluster of three primaries with a replica each.
     */
    private static RedisAddress redis(
            Env env, ServerKind kind, Map<String, String> origins, Deque<AutoCloseable> running) {
        if (env.string(RedisAddress.URL, null) != null) {
            RedisAddress given = RedisAddress.from(env);
            origins.put("redis", "given " + given);
            return given;
        }
        RunningServer server = remember(running, kind.redis().apply(RedisAddress.from(env).topology()));
        RedisAddress started = server instanceof EmbeddedRedisCluster
                ? new RedisAddress(RedisAddress.Topology.CLUSTER, server.address())
                : RedisAddress.single(server.address());
        origins.put("redis", started + " (" + kind.description() + ")");
        return started;
    }

    private static <T extends RunningServer> T remember(Deque<AutoCloseable> running, T server) {
        running.push(server);
        return server;
    }

    /**
     * The servers, Kafka as the operator (a super user: test harnesses write any topic), MySQL with the services'
     * password and no account of a service's ({@link #addressesFor} gives each service its own; {@link #ownerAddresses}
     * the schema's owner).
     */
    public InfraAddresses addresses() {
        return addresses;
    }

    /**
     * The servers as the service whose principal is {@code principal} reaches them: Kafka, MySQL and Redis with its
     * rights only.
     */
    public InfraAddresses addressesFor(KafkaPrincipal principal) {
        InfraAddresses service = addresses.forService(new Env(mysqlAccounts), principal);
        return RedisUser.of(principal).filter(_ -> redisUsers)
                .map(user -> service.withRedis(service.redis().as(user.user(), Secrets.DEVELOPMENT_REDIS_PASSWORD)))
                .orElse(service);
    }

    /**
     * The servers, Kafka as the operator, MySQL as the service's account: a service in a test that stages records for
     * it.
     */
    public InfraAddresses operatorAddressesFor(KafkaPrincipal principal) {
        return addressesFor(principal).as(KafkaPrincipal.OPERATOR);
    }

    /**
     * The JVM of node {@code node} (1 to 3) of a Kafka cluster started here: what a test kills to see a broker die.
     * @throws IllegalStateException when this JVM's Kafka is no cluster it started
     */
    public ProcessHandle kafkaNode(int node) {
        return running.stream()
                .filter(EmbeddedKafkaCluster.class::isInstance)
                .map(EmbeddedKafkaCluster.class::cast)
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("this JVM started no Kafka cluster (" + KAFKA_BROKERS + "=3)"))
                .process(node);
    }

    /**
     * The servers, MySQL as the migration account (it owns the schema): what a test needs to stage a fault in MySQL.
     */
    public InfraAddresses ownerAddresses() {
        return addresses.as(migration);
    }

    /** The addresses as the environment variables every service reads. */
    public Map<String, String> variables() {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put(InfraAddresses.KAFKA_BOOTSTRAP, addresses.kafkaBootstrap());
        // No user: each service logs in as its own principal, a harness as the operator.
        KafkaSecurity kafka = addresses.kafka().security();
        variables.put(KafkaSecurity.PROTOCOL, kafka.protocol().name());
        kafka.sasl().ifPresent(login -> {
            variables.put(KafkaSecurity.SASL_MECHANISM, login.mechanism().kafkaName());
            variables.put(KafkaSecurity.PASSWORD, login.password());
        });
        variables.put(RedisAddress.URL, addresses.redis().url());
        variables.put(RedisAddress.TOPOLOGY, addresses.redis().topology().label());
        variables.put(InfraAddresses.MYSQL_URL, addresses.mysqlUrl());
        // Users only for a given server: on one started here each service connects as its own account, on one password.
        variables.putAll(mysqlAccounts);
        variables.put(InfraAddresses.MYSQL_PASSWORD, addresses.mysqlPassword());
        variables.put(MigrationAccount.USER, migration.user());
        variables.put(MigrationAccount.PASSWORD, migration.password());
        return variables;
    }

    /** Where each server came from, for the launcher's banner. */
    public Map<String, String> origins() {
        return Collections.unmodifiableMap(origins);
    }

    /** At exit, closes {@code dependent} (services using these servers) before stopping the servers. */
    public synchronized void closeFirstOnStop(AutoCloseable dependent) {
        running.push(dependent);
    }

    private synchronized void stop() {
        while (!running.isEmpty()) {
            AutoCloseable server = running.pop();
            try {
                server.close();
            } catch (Exception e) {
                LOG.warn("could not stop {}", server, e);
            }
        }
    }
}
