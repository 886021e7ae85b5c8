package io.seckill.launcher;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.dbsink.DbSink;
import io.seckill.dbsink.DbSinkConfig;
import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.reconciler.Reconciler;
import io.seckill.reconciler.ReconcilerConfig;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.management.ServiceHost;
import io.seckill.streamprocessor.StreamProcessor;
import io.seckill.streamprocessor.StreamProcessorConfig;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The services of the pipeline, started in dependency order against one set of servers, stopped in
 * reverse. SECKILL_LAUNCH lists which run (default all four): a benchmark of the ingress alone runs
 * {@code ingress-api} and lets Kafka hold the burst, as it would for a real sale.
 */
public final class SeckillSystem implements AutoCloseable {

    private final OpenedResources services = new OpenedResources();
    private final IngressApi ingress;

    public static final String LAUNCH = "SECKILL_LAUNCH";
    private static final List<String> SERVICES = List.of("stream-processor", "db-sink", "reconciler", "ingress-api");

    private SeckillSystem(Env env, Function<KafkaPrincipal, InfraAddresses> addressesOf, ServiceHost host) {
        List<String> launch = Arrays.stream(
                        env.string(LAUNCH, String.join(",", SERVICES)).split(","))
                .map(String::trim)
                .toList();
        List<String> unknown = launch.stream().filter(name -> !SERVICES.contains(name)).toList();
        if (!unknown.isEmpty() || !launch.contains("ingress-api")) {
            throw new IllegalArgumentException(
                    LAUNCH + " lists services among " + SERVICES + " and always ingress-api; unknown: " + unknown);
        }
        // In one process too, each service reaches Kafka as its own principal, MySQL and Redis as its own user, with
        // only its own rights.
        try {
            if (launch.contains("stream-processor")) {
                services.add(StreamProcessor.start(
                        StreamProcessorConfig.from(env, addressesOf.apply(KafkaPrincipal.STREAM_PROCESSOR)), host));
            }
            if (launch.contains("db-sink")) {
                services.add(DbSink.start(DbSinkConfig.from(env, addressesOf.apply(KafkaPrincipal.DB_SINK)), host));
            }
            if (launch.contains("reconciler")) {
                services.add(Reconciler.start(
                        ReconcilerConfig.from(env, addressesOf.apply(KafkaPrincipal.RECONCILER)), host));
            }
            ingress = services.add(
                    IngressApi.start(IngressConfig.from(env, addressesOf.apply(KafkaPrincipal.INGRESS)), host));
        } catch (Throwable e) {
            services.closeAfter(e);
            throw e;
        }
    }

    /**
     * Starts the services SECKILL_LAUNCH lists, all reporting to one host (one management port), each reaching the
     * servers as {@code addressesOf} gives them for its principal.
     */
    public static SeckillSystem start(Env env, Function<KafkaPrincipal, InfraAddresses> addressesOf, ServiceHost host) {
        return new SeckillSystem(env, addressesOf, host);
    }

    public int httpPort() {
        return ingress.port();
    }

    public int adminPort() {
        return ingress.adminPort();
    }

    @Override
    public synchronized void close() {
        services.close();
    }
}
