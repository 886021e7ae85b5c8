package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.runtime.TestTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser's proof-of-work solver that docs/api.md gives, run as written under Node (the JavaScript a browser runs,
 * with the same typed arrays and TextEncoder) against a real ingress's challenges: the ingress takes its solutions.
 * The test command (bin/seckill test, as CI) installs Node; a machine without it skips this test and says so.
 */
class SolverScriptIT {

    private static final Path API_DOCS = Path.of("").toAbsolutePath().getParent().getParent().resolve("docs/api.md");
    private static final Pattern SOLVER = Pattern.compile("```javascript\\n(.*?)```", Pattern.DOTALL);

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void theDocumentedBrowserSolverEarnsAPass(@TempDir Path directory) throws Exception {
        TestTools.assumePresent(
                nodeIsInstalled(),
                "Node.js is not installed: the documented browser solver is not run (bin/seckill test installs it)");
        Matcher solver = SOLVER.matcher(Files.readString(API_DOCS));
        assertThat(solver.find()).as("docs/api.md gives the solver").isTrue();
        Path script = directory.resolve("solver.js");
        Files.writeString(
                script,
                solver.group(1)
                        + "\nprocess.stdout.write(solveChallenge(process.argv[2], Number(process.argv[3])));\n");

        long sku = IngressFixture.newSkuId();
        fixture.http.defineSale(sku, 5, 1, Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600), true);
        for (String buyer : new String[] {"node-buyer-1", "node-buyer-2", "node-buyer-3"}) {
            HttpApi.Reply challenge = fixture.http.challenge(buyer, sku);
            String puzzle = challenge.json().path("challenge").asText();
            String solution = run("node", script.toString(), puzzle, challenge.json().path("difficulty").asText());

            HttpApi.Reply pass = fixture.http.pass(
                    buyer, sku, "{\"challenge\":\"" + puzzle + "\",\"solution\":\"" + solution + "\"}");
            assertThat(pass.status()).as(pass.body()).isEqualTo(201);
        }
    }

    private static boolean nodeIsInstalled() {
        try {
            return run("node", "--version").startsWith("v");
        } catch (IOException | InterruptedException | IllegalStateException e) {
            return false;
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }
}
