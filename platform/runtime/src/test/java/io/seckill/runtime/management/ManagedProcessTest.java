package io.seckill.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.Env;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The management port's metrics say what /ready says, so that an alert can watch readiness. */
class ManagedProcessTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theReadyGaugeFollowsReadiness() throws Exception {
        try (ManagedProcess process = ManagedProcess.open("gauge-test", 0, new Env(Map.of()), (part, cause) -> { })) {
            assertThat(metrics(process))
                    .as("services not started yet")
                    .contains("seckill_ready{service=\"gauge-test\"} 0.0");

            boolean[] up = {true};
            process.host()
                    .readiness()
                    .add(
                            "dependency",
                            () -> up[0] ? Readiness.CheckResult.up("ok") : Readiness.CheckResult.down("gone"));
            process.start(host -> () -> { });
            assertThat(metrics(process)).contains("seckill_ready{service=\"gauge-test\"} 1.0");

            up[0] = false;
            assertThat(metrics(process)).as("a check went down").contains("seckill_ready{service=\"gauge-test\"} 0.0");
        }
    }

    private static String metrics(ManagedProcess process) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + process.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
