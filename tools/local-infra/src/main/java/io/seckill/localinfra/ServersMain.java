package io.seckill.localinfra;

import io.seckill.config.Env;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/seckill servers [--fresh]}: Kafka, Redis and MariaDB for development in one process,
 * their data in the data directory, their addresses (and the development secrets, unless the
 * environment sets its own) in its {@code servers.env}. Runs until Ctrl-C or SIGTERM.
 */
public final class ServersMain {

    private ServersMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Env env = Env.system();
        DataDirectory data = DataDirectory.forCommand(env, args);
        LocalInfrastructure infra = LocalInfrastructure.keptIn(data, env, developmentSettings(env, data));
        StringBuilder banner = new StringBuilder("\nseckill servers are running\n");
        infra.origins().forEach((server, origin) -> banner.append(String.format("  %-7s %s%n", server, origin)));
        banner.append(String.format("  %-7s %s%n", "env", data.serversEnv()));
        banner.append("Press Ctrl-C to stop; the data stays for the next start (--fresh starts empty).\n");
        System.out.println(banner);
        new CountDownLatch(1).await();
    }

    /** What the services of a development run share besides the addresses. */
    public static Map<String, String> developmentSettings(Env env, DataDirectory data) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("SECKILL_STREAMS_STATE_DIR", env.string("SECKILL_STREAMS_STATE_DIR", data.streams().toString()));
        DevelopmentSecrets.variables().forEach((name, value) -> settings.put(name, env.string(name, value)));
        return settings;
    }
}
