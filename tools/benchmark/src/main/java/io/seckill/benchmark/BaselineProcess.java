package io.seckill.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A baseline design's JVM beside the development servers, run from its packaged jar
 * ({@code tools/baselines/target/baselines.jar}), its output in the benchmark's logs; started when it says it listens.
 */
final class BaselineProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final String LISTENING = "listening on";

    private final Process process;

    private BaselineProcess(Process process) {
        this.process = process;
    }

    /** @param settings the process's environment besides the servers' addresses and its port */
    static BaselineProcess start(
            Design design, Path repository, Map<String, String> settings, Path logs, int port)
            throws IOException, InterruptedException {
        Path jar = repository.resolve("tools/baselines/target/baselines.jar");
        Files.createDirectories(logs);
        Path log = logs.resolve("baseline-" + design.label() + ".log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-jar", jar.toString(), design.baseline().label())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(settings);
        builder.environment().put("BASELINE_PORT", Integer.toString(port));
        // The log is appended to: only a line this process writes says it listens.
        long earlier = Files.exists(log) ? Files.readString(log).split(LISTENING, -1).length : 1;
        Process process = builder.start();
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Files.readString(log).split(LISTENING, -1).length <= earlier) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "baseline " + design.label() + " did not start; its output:\n" + Files.readString(log));
            }
            Thread.sleep(250);
        }
        return new BaselineProcess(process);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (process.waitFor(30, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}
