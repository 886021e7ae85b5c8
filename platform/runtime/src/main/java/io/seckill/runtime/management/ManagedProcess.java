package io.seckill.runtime.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seckill.config.Env;
import java.time.Clock;

/**
 * A process's management side: its registry, its readiness checks and the port serving both, opened
 * before any service starts so that a supervisor sees the process from its first second.
 */
public final class ManagedProcess implements AutoCloseable {

    private final ServiceHost host;
    private final ManagementServer server;

    private ManagedProcess(ServiceHost host, ManagementServer server) {
        this.host = host;
        this.server = server;
    }

    /**
     * @param defaultPort used when SECKILL_MANAGEMENT_PORT is unset; each service has its own, so that
     *                    one of each runs on a host without settings ({@code 0}: any free port)
     */
    public static ManagedProcess open(String service, int defaultPort, Env env, FatalFailures fatal) {
        PrometheusMeterRegistry registry = ProcessMetrics.registry(service);
        Readiness readiness = new Readiness();
        // What /ready answers, for an alert rule: evaluated at each scrape, so it is never older than the scrape.
        Gauge.builder("seckill.ready", readiness, checks -> checks.evaluate().ready() ? 1 : 0)
                .description("1 when every readiness check passes (what /ready answers), else 0").register(registry);
        ManagementServer server = ManagementServer.start(env, defaultPort, registry, readiness);
        System.out.printf("%s management http://localhost:%d (/health /ready /metrics)%n", service, server.port());
        return new ManagedProcess(new ServiceHost(registry, readiness, fatal, Clock.systemUTC()), server);
    }

    /** Builds a process's services on its host. */
    @FunctionalInterface
    public interface Starter<T extends AutoCloseable> {
        T start(ServiceHost host) throws Exception;
    }

    /** Starts the process's services and, once they all have, lets {@code /ready} pass. */
    public <T extends AutoCloseable> T start(Starter<T> starter) throws Exception {
        T services = starter.start(host);
        host.readiness().servicesStarted();
        return services;
    }

    public ServiceHost host() {
        return host;
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }
}
