package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.runtime.TestTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules compose's Prometheus loads: valid, each tested by promtool with a series that must fire it and one
 * that must not (compose/prometheus/alerts-test.yml), and each explained in docs/operations.md. The test command
 * installs promtool (bin/seckill test, Debian's prometheus); a machine without it skips the promtool runs and says what
 * to install.
 */
class AlertRulesTest {

    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path RULES = REPO.resolve("compose/prometheus/alerts.yml");
    private static final Path RULE_TESTS = REPO.resolve("compose/prometheus/alerts-test.yml");

    @Test
    void prometheusTakesTheConfigurationAndEveryRuleFiresWhenItMustAndOnlyThen() throws Exception {
        TestTools.assumePresent(
                promtoolIsInstalled(),
                "promtool is not installed (Debian: apt-get install prometheus): the alert rules' tests are not run");
        assertThat(run(
                        "promtool",
                        "check",
                        "config",
                        REPO.resolve("compose/prometheus.yml").toString()))
                .contains("SUCCESS");
        assertThat(run("promtool", "test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
    }

    @Test
    void everyAlertIsTestedAndExplainedForTheOperator() throws IOException {
        Set<String> alerts = alertNames();
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(9);
        String tests = Files.readString(RULE_TESTS);
        String operations = Files.readString(REPO.resolve("docs/operations.md"));
        for (String alert : alerts) {
            assertThat(tests).as(alert + " has a test").contains("alertname: " + alert);
            assertThat(operations).as(alert + " is explained").contains("`" + alert + "`");
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> alertNames() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(RULES));
        Set<String> names = new TreeSet<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                names.add((String) rule.get("alert"));
            }
        }
        return names;
    }

    private static boolean promtoolIsInstalled() {
        try {
            run("promtool", "--version");
            return true;
        } catch (IOException | InterruptedException | IllegalStateException e) {
            return false;
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", line) + " did not finish");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", line) + " failed:\n" + output);
        }
        return output;
    }
}
