package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.Env;
import io.seckill.runtime.management.ManagedProcess;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An ingress with a management port of its own (any free one), as its process runs it. */
record ManagedIngress(IngressApi ingress, ManagedProcess management) implements AutoCloseable {

    private static final Pattern BUY_POOL_ACQUIRED = Pattern.compile(
            "(?m)^hikaricp_connections_acquire_seconds_count\\{[^}]*pool=\"ingress-api\"[^}]*} (\\S+)$");

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

    /** The value of the first sample {@code metric} (a pattern whose group 1 is the value) finds on /metrics. */
    double metric(Pattern metric) {
        Matcher value = metric.matcher(managementHttp().get("/metrics").body());
        assertThat(value.find()).as("metric %s present", metric).isTrue();
        return Double.parseDouble(value.group(1));
    }

    /** How many times a connection was taken from the buy path's MySQL pool since the ingress started. */
    double buyPoolConnectionsTaken() {
        return metric(BUY_POOL_ACQUIRED);
    }

    @Override
    public void close() {
        ingress.close();
        management.close();
    }
}
