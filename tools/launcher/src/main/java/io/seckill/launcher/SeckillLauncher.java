package io.seckill.launcher;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.localinfra.DataDirectory;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.localinfra.ServersMain;
import io.seckill.runtime.ServiceMain;
import io.seckill.runtime.management.ManagedProcess;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Development mode ({@code bin/seckill all [--fresh]}, unless SECKILL_MODE says production): starts (or finds, from the
 * environment) Kafka, Redis and MySQL with their data in the data directory, runs every service in this JVM, prints
 * where everything listens, and stops cleanly on Ctrl-C. Started again, it carries on where it stopped.
 */
public final class SeckillLauncher {

    /** The management port of development mode when SECKILL_MANAGEMENT_PORT is unset. */
    public static final int MANAGEMENT_PORT = 9080;

    private SeckillLauncher() {
    }

    public static void main(String[] args) throws Exception {
        Env given = Env.system();
        ServiceMain.checkLogFormat("seckill", given);
        DataDirectory data = DataDirectory.forCommand(given, args);
        Map<String, String> development = ServersMain.developmentSettings(given, data);
        LocalInfrastructure infra = LocalInfrastructure.keptIn(data, given, development);
        Env env = given;
        // The servers' settings too (on a given MySQL with one account, the account the admin listener connects as).
        for (Map<String, String> settings : List.of(development, infra.variables())) {
            for (Map.Entry<String, String> setting : settings.entrySet()) {
                env = env.withDefault(setting.getKey(), setting.getValue());
            }
        }
        ManagedProcess management =
                ManagedProcess.open("seckill", MANAGEMENT_PORT, env, ServiceMain.exitProcess("seckill"));
        Env services = env;
        SeckillSystem system = management.start(host -> SeckillSystem.start(services, infra::addressesFor, host));
        StringBuilder banner = new StringBuilder("\nseckill is running\n");
        infra.origins().forEach((server, origin) -> banner.append(String.format("  %-7s %s%n", server, origin)));
        banner.append(String.format("  %-7s http://localhost:%d  (GET /health)%n", "http", system.httpPort()));
        banner.append(String.format(
                "  %-7s http://127.0.0.1:%d  (/admin/v1/...; the operator page /watch/, the API reference"
                        + " /api-docs/)%n",
                "admin", system.adminPort()));
        banner.append(
                String.format("  %-7s http://localhost:%d  (/health /ready /metrics)%n", "manage", management.port()));
        DeploymentMode mode = DeploymentMode.of(env);
        banner.append(String.format("  %-7s %s%n", "mode", mode.label()));
        switch (mode) {
            case DEVELOPMENT -> banner.append(DevCredentials.describe(env));
            case PRODUCTION -> { }
        }
        banner.append("Press Ctrl-C to stop; the data stays for the next start (--fresh starts empty).\n");
        System.out.println(banner);
        // One shutdown hook, in order: the services first, then the servers under them.
        infra.closeFirstOnStop(management);
        infra.closeFirstOnStop(system);
        new CountDownLatch(1).await();
    }
}
