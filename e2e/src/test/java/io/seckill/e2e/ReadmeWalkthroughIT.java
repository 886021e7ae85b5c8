package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's run command, as a user types it, answers the README's walk-through,
 * run verbatim (only the ports differ, so the test never collides with a server on 8080 or 8081), and stops
 * cleanly on Ctrl-C, printing no warning from its start to its end. The build has already installed the modules, which
 * is the run command's first half.
 */
class ReadmeWalkthroughIT {

    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Pattern RUN_COMMAND =
            Pattern.compile("```bash\\n(bin/seckill build[^\\n]*&& bin/seckill all)\\n```");
    private static final Pattern MANAGEMENT_PORT = Pattern.compile("seckill management http://localhost:(\\d+)");
    private static final Pattern BUYERS_PORT = Pattern.compile("ingress-api listening on http://localhost:(\\d+)");
    private static final Pattern ADMIN_PORT =
            Pattern.compile("ingress-api listening on .* admin on http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern CHARTED_METRIC = Pattern.compile("\\b((?:seckill|jvm|hikaricp|kafka)_[a-z0-9_]+)");
    private static final Pattern WARNING = Pattern.compile("\\bWARN(ING)?\\b");
    private static final Pattern WALKTHROUGH = Pattern.compile(
            "<!-- walkthrough:start -->\\n```bash\\n(.*?)```\\n<!-- walkthrough:end -->", Pattern.DOTALL);

    @Test
    void theRunCommandAnswersTheWalkthroughAndStopsCleanly() throws Exception {
        String readme = Files.readString(REPO.resolve("README.md"));
        String runCommand = secondHalf(only(RUN_COMMAND, readme));

        // A data directory of the test's own: the walk-through starts from an empty system.
        String dataDirectory = REPO.resolve("e2e/target/walkthrough-" + UUID.randomUUID()).toString();
        // In a process group of its own, as a terminal runs a command: Ctrl-C signals that whole group. A terminal's
        // command starts with SIGINT at its default; a test started in the background inherits it ignored, which bash
        // cannot trap.
        ProcessBuilder launcher = new ProcessBuilder(
                        "setsid", "env", "--default-signal=INT", "bash", "-c", "exec " + runCommand)
                .directory(REPO.toFile())
                .redirectErrorStream(true);
        // Every listener on a port of the system's own choosing, read from its output: a port picked free beforehand
        // could be taken by any of the system's own servers before the ingress binds it, after its warm-up.
        launcher.environment().put("SECKILL_HTTP_PORT", "0");
        launcher.environment().put("SECKILL_ADMIN_PORT", "0");
        launcher.environment().put("SECKILL_MANAGEMENT_PORT", "0");
        launcher.environment().put("SECKILL_DATA_DIR", dataDirectory);
        // Frequent figures, so that every gauge the dashboard charts has a value before the test ends.
        launcher.environment().put("SECKILL_DRIFT_CHECK_INTERVAL_MS", "500");
        launcher.environment().put("SECKILL_FIGURES_INTERVAL_MS", "500");
        Process system = launcher.start();
        List<String> systemOutput = new CopyOnWriteArrayList<>();
        CountDownLatch running = new CountDownLatch(1);
        Thread reader = new Thread(() -> readLines(system, systemOutput, running));
        reader.start();
        try {
            assertThat(running.await(5, TimeUnit.MINUTES)).as("launcher output: %s", systemOutput).isTrue();
            assertThat(systemOutput).as("launcher output").anyMatch(line -> line.contains("seckill is running"));
            int port = Integer.parseInt(only(BUYERS_PORT, String.join("\n", systemOutput)));
            int adminPort = Integer.parseInt(only(ADMIN_PORT, String.join("\n", systemOutput)));
            String walkthrough = only(WALKTHROUGH, readme)
                    .replace("localhost:8080", "localhost:" + port)
                    .replace("127.0.0.1:8081", "127.0.0.1:" + adminPort);

            ProcessBuilder walk = new ProcessBuilder("bash", "-e", "-c", walkthrough)
                    .directory(REPO.toFile())
                    .redirectErrorStream(true);
            walk.environment().put("SECKILL_DATA_DIR", dataDirectory);
            Process script = walk.start();
            assertThat(script.waitFor(2, TimeUnit.MINUTES)).isTrue();
            String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(script.exitValue()).as(output).isZero();
            assertThat(output).contains("\"skuId\":42").contains("\"status\":\"CONFIRMED\"")
                    .contains("\"code\":\"PURCHASE_LIMIT_REACHED\"")
                    .contains("\"status\":\"PAID\"").contains("\"paymentReference\":\"psp-0001\"")
                    .contains("\"mysqlStock\":98").contains("\"redisStock\":98").contains("\"confirmedQuantity\":2")
                    .contains("\"paidQuantity\":2");

            // The banner's buyer token works as printed.
            String bannerToken = systemOutput.stream()
                    .filter(line -> line.contains("buyer   Authorization: Bearer "))
                    .map(line -> line.substring(line.indexOf("Bearer ") + 7).split(" ", 2)[0])
                    .findFirst()
                    .orElseThrow();
            Process poll = new ProcessBuilder(
                            "curl",
                            "-s",
                            "-o",
                            "/dev/null",
                            "-w",
                            "%{http_code}",
                            "-H",
                            "Authorization: Bearer " + bannerToken,
                            "localhost:" + port + "/api/v1/orders/" + UUID.randomUUID())
                    .redirectErrorStream(true)
                    .start();
            assertThat(poll.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(poll.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .as("an authenticated miss")
                    .isEqualTo("404");

            int managementPort = Integer.parseInt(only(MANAGEMENT_PORT, String.join("\n", systemOutput)));
            Set<String> charted = chartedMetrics();
            // Registered with the first dead letter, per stage and reason: the walk-through has none.
            charted.remove("seckill_dead_letters_total");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                String metrics = "\n" + get(managementPort, "/metrics");
                assertThat(charted).as("the Grafana dashboard's metrics, exported").allMatch(name ->
                        metrics.contains("\n" + name + "{") || metrics.contains("\n" + name + " "));
            });

            pressCtrlC(system);
            assertThat(system.waitFor(2, TimeUnit.MINUTES)).as("stops on Ctrl-C; output: %s", systemOutput).isTrue();
            reader.join(TimeUnit.MINUTES.toMillis(1));
            // A healthy start, sale and stop warns of nothing, the servers stopping under the services included.
            assertThat(systemOutput).as("a quiet run").noneMatch(line -> WARNING.matcher(line).find());
        } finally {
            system.descendants().forEach(ProcessHandle::destroyForcibly);
            system.destroyForcibly();
        }
    }

    /** SIGINT to the run command's whole process group, as a terminal sends it. */
    private static void pressCtrlC(Process system) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + system.pid()).redirectErrorStream(true).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue())
                .as(new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
    }

    /** Every metric the provisioned Grafana dashboard queries. */
    private static Set<String> chartedMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(
                        REPO.resolve("compose/grafana/dashboards/seckill.json").toFile());
        Set<String> names = new TreeSet<>();
        for (JsonNode expression : dashboard.path("panels").findValues("expr")) {
            Matcher metric = CHARTED_METRIC.matcher(expression.asText());
            while (metric.find()) {
                names.add(metric.group(1));
            }
        }
        return names;
    }

    private static String get(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** The run command is "install && exec"; the build running this test did the install. */
    private static String secondHalf(String runCommand) {
        return runCommand.substring(runCommand.lastIndexOf("&&") + 2).trim();
    }

    private static String only(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        assertThat(matcher.find()).as("README block %s", pattern).isTrue();
        return matcher.group(1);
    }

    private static void readLines(Process process, List<String> lines, CountDownLatch running) {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
                if (line.contains("seckill is running")) {
                    running.countDown();
                }
            }
        } catch (IOException e) {
            lines.add("output closed: " + e);
        } finally {
            // A launcher that died before its banner ends the wait at once, not after the time limit.
            running.countDown();
        }
    }
}
