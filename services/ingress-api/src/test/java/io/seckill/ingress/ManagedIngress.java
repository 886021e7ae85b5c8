package io.seckill.ingress;

import io.seckill.config.Env;
import io.seckill.runtime.management.ManagedProcess;
import java.util.Map;

/** An ingress with a management port of its own (any free one), as its process runs it. */
record ManagedIngress(IngressApi ingress, ManagedProcess management) implements AutoCloseable {

    static ManagedIngress start(IngressConfig config) {
        ManagedProcess management = ManagedProcess.open("ingress-api", 0, new Env(Map.of()), (part, cause) -> {
            throw new AssertionError(part + " reported a fatal failure", cause);
        });
        try {
            return new ManagedIngress(management.start(host -> IngressApi.start(config, host)), management);
        } catch (RuntimeException e) {
            management.close();
            throw e;
        } catch (Exception e) {
            management.close();
            throw new IllegalStateException("the ingress did not start", e);
        }
    }

    /** The buyers' port. */
    HttpApi http() {
        return new HttpApi(ingress.port(), ingress.adminPort());
    }

    /** The operator's port: /health, /ready, /metrics. */
    HttpApi managementHttp() {
        return new HttpApi(management.port(), ingress.adminPort());
    }

    @Override
    public void close() {
        ingress.close();
        management.close();
    }
}
