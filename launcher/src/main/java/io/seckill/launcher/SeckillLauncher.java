package io.seckill.launcher;

import io.seckill.config.Env;
import io.seckill.ingress.IngressConfig;
import io.seckill.localinfra.LocalInfrastructure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Development mode: starts (or finds, from the environment) Kafka, Redis and MySQL, runs every
 * service in this JVM, prints where everything listens, and stops cleanly on Ctrl-C.
 */
public final class SeckillLauncher {

    private SeckillLauncher() {
    }

    public static void main(String[] args) {
        LocalInfrastructure infra = LocalInfrastructure.get();
        // Kafka Streams state belongs to one Kafka cluster; the embedded cluster is new each run.
        // The secrets fall back to published development values: this mode is never production.
        Env env = Env.system()
                .withDefault("SECKILL_STREAMS_STATE_DIR", temporaryDirectory("seckill-streams").toString())
                .withDefault(IngressConfig.TOKEN_SECRET, DevCredentials.TOKEN_SECRET)
                .withDefault(IngressConfig.ADMIN_TOKEN, DevCredentials.ADMIN_TOKEN);
        SeckillSystem system = SeckillSystem.start(env, infra.addresses());
        StringBuilder banner = new StringBuilder("\nseckill is running\n");
        infra.origins().forEach((server, origin) -> banner.append(String.format("  %-7s %s%n", server, origin)));
        banner.append(String.format("  %-7s http://localhost:%d  (GET /health)%n", "http", system.httpPort()));
        banner.append(DevCredentials.describe(env));
        banner.append("Press Ctrl-C to stop.\n");
        System.out.println(banner);
        // One shutdown hook, in order: the services first, then the servers under them.
        infra.closeFirstOnStop(system);
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path temporaryDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
