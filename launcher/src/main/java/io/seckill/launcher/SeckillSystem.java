package io.seckill.launcher;

import io.seckill.dbsink.DbSink;
import io.seckill.dbsink.DbSinkConfig;
import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.reconciler.Reconciler;
import io.seckill.reconciler.ReconcilerConfig;
import io.seckill.runtime.Env;
import io.seckill.runtime.InfraAddresses;
import io.seckill.streamprocessor.StreamProcessor;
import io.seckill.streamprocessor.StreamProcessorConfig;
import java.util.ArrayDeque;
import java.util.Deque;

/** Every service of the pipeline, started in dependency order against one set of servers, stopped in reverse. */
public final class SeckillSystem implements AutoCloseable {

    private final Deque<AutoCloseable> services = new ArrayDeque<>();
    private final IngressApi ingress;

    private SeckillSystem(Env env, InfraAddresses infra) {
        try {
            services.push(StreamProcessor.start(StreamProcessorConfig.from(env, infra)));
            services.push(DbSink.start(DbSinkConfig.from(env, infra)));
            services.push(Reconciler.start(ReconcilerConfig.from(env, infra)));
            ingress = IngressApi.start(IngressConfig.from(env, infra));
            services.push(ingress);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public static SeckillSystem start(Env env, InfraAddresses infra) {
        return new SeckillSystem(env, infra);
    }

    public int httpPort() {
        return ingress.port();
    }

    public IngressApi ingress() {
        return ingress;
    }

    @Override
    public synchronized void close() {
        while (!services.isEmpty()) {
            try {
                services.pop().close();
            } catch (Exception e) {
                e.printStackTrace();
            }
        }
    }
}
