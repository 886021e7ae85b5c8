package io.seckill.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seckill.config.Env;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The management port answers this host only, unless SECKILL_MANAGEMENT_HOST says otherwise; its
 * {@code /ready} names each check and its state, never why a check failed.
 */
class ManagementServerTest {

    @Test
    void readyNamesAFailingCheckButNotItsException() throws Exception {
        Readiness readiness = new Readiness();
        readiness.reachable("mysql", () -> {
            throw new IllegalStateException(
                    "Access denied for user 'root'@'10.0.0.12' to jdbc:mariadb://db.internal:3306/seckill");
        });
        readiness.servicesStarted();
        try (ManagementServer server = ManagementServer.start(
                new Env(Map.of()), 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), readiness)) {
            HttpResponse<String> ready = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/ready"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body())
                    .contains("mysql")
                    .contains(Readiness.FAILED)
                    .doesNotContain("Access denied")
                    .doesNotContain("db.internal")
                    .doesNotContain("IllegalStateException");
        }
    }

    @Test
    void itListensOnThisHostOnlyUnlessToldOtherwise() throws Exception {
        Optional<InetAddress> outside = addressOtherThanLoopback();
        assumeTrue(outside.isPresent(), "this host has no address but loopback to connect from");

        try (ManagementServer onlyHere = start(Map.of())) {
            assertThat(answers(InetAddress.getLoopbackAddress(), onlyHere.port())).isTrue();
            assertThat(answers(outside.get(), onlyHere.port())).as("reached through " + outside.get()).isFalse();
        }
        try (ManagementServer everywhere = start(Map.of(ManagementServer.HOST_VARIABLE, "0.0.0.0"))) {
            assertThat(answers(outside.get(), everywhere.port())).isTrue();
        }
    }

    private static ManagementServer start(Map<String, String> settings) {
        return ManagementServer.start(
                new Env(settings), 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), new Readiness());
    }

    private static boolean answers(InetAddress address, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return true;
        } catch (ConnectException refused) {
            return false;
        }
    }

    private static Optional<InetAddress> addressOtherThanLoopback() throws SocketException {
        return NetworkInterface.networkInterfaces()
                .filter(network -> {
                    try {
                        return network.isUp() && !network.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(Inet4Address.class::isInstance)
                .findFirst();
    }
}
