package io.seckill.processdriver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One seckill process started as docs/operations.md says ({@code bin/seckill COMMAND}), its output in a log
 * file: what tests and benchmarks drive when they need real processes to kill, stop and pause.
 */
public final class SeckillProcess implements AutoCloseable {

    // Read from text or JSON logs alike: the JSON log escapes each slash.
    private static final String SLASHES = "\\\\?/\\\\?/";
    private static final Pattern MANAGEMENT = Pattern.compile("management http:" + SLASHES + "localhost:(\\d+)");
    private static final Pattern BUYERS =
            Pattern.compile("ingress-api listening on http:" + SLASHES + "localhost:(\\d+)");
    private static final Pattern ADMIN =
            Pattern.compile("ingress-api listening on .* admin on http:" + SLASHES + "[^:/\\\\]+:(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Process process;
    private final Path log;
    /** Where this process's output starts in its log: a process started again under the same name appends to it. */
    private final long logOffset;
    private final Instant started;
    private volatile Integer managementPort;
    private volatile Integer buyersPort;
    private volatile Integer adminPort;

    private SeckillProcess(String name, Process process, Path log, long logOffset, Instant started) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.logOffset = logOffset;
        this.started = started;
    }

    /**
     * Starts {@code bin/seckill command arguments} in {@code repository} with {@code environment} added
     * to this process's own; its output goes to {@code logDirectory/name.log}.
     */
    public static SeckillProcess start(Path repository, String name, String command, Map<String, String> environment,
                                       Path logDirectory, String... arguments) {
        try {
            Files.createDirectories(logDirectory);
            Path log = logDirectory.resolve(name + ".log");
            List<String> commandLine = new ArrayList<>(List.of(repository.resolve("bin/seckill").toString(), command));
            commandLine.addAll(List.of(arguments));
            ProcessBuilder builder = new ProcessBuilder(commandLine)
                    .directory(repository.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            long logOffset = Files.exists(log) ? Files.size(log) : 0;
            Instant started = Instant.now();
            return new SeckillProcess(name, builder.start(), log, logOffset, started);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start bin/seckill " + command, e);
        }
    }

    public String name() {
        return name;
    }

    public Instant started() {
        return started;
    }

    /**
     * What this process wrote, and nothing an earlier process of the same name left in the log: a restarted process's
     * "running" line or ports are its own, never its predecessor's.
     */
    public String output() {
        try {
            byte[] written = Files.readAllBytes(log);
            int from = (int) Math.min(logOffset, written.length);
            return new String(written, from, written.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The management port the process printed, once it has. */
    public Optional<Integer> managementPort() {
        if (managementPort == null) {
            managementPort = printed(MANAGEMENT);
        }
        return Optional.ofNullable(managementPort);
    }

    /** The buyers' port an ingress printed, once it has. */
    public Optional<Integer> buyersPort() {
        if (buyersPort == null) {
            buyersPort = printed(BUYERS);
        }
        return Optional.ofNullable(buyersPort);
    }

    /** The admin listener's port an ingress printed, once it has. */
    public Optional<Integer> adminPort() {
        if (adminPort == null) {
            adminPort = printed(ADMIN);
        }
        return Optional.ofNullable(adminPort);
    }

    /** The admin API of an ingress that printed its port (it listens on this host only unless configured otherwise). */
    public URI adminUri() {
        return URI.create("http://127.0.0.1:"
                + adminPort().orElseThrow(() -> new IllegalStateException(name + " printed no admin port")));
    }

    /** Reads the log until the port is printed; readiness polls would otherwise read a growing log each time. */
    private Integer printed(Pattern pattern) {
        Matcher matcher = pattern.matcher(output());
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : null;
    }

    /** GET /ready on the management port: its status code and body, or empty while there is no answer. */
    public Optional<Readiness> readiness() {
        Optional<Integer> port = managementPort();
        if (port.isEmpty() || !process.isAlive()) {
            return Optional.empty();
        }
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port.get() + "/ready"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return Optional.of(new Readiness(response.statusCode() == 200, JSON.readTree(response.body())));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** GET /metrics on the management port. */
    public String metrics() throws IOException, InterruptedException {
        int port = managementPort().orElseThrow(() -> new IllegalStateException(name + " printed no management port"));
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    public boolean ready() {
        return readiness().map(Readiness::ready).orElse(false);
    }

    /**
     * Waits until the process answers /ready with 200.
     * @throws IllegalStateException with its output, when it ends or is not ready within {@code timeout}
     */
    public void awaitReady(Duration timeout) throws InterruptedException {
        awaitReady(() -> this, true, timeout);
    }

    /**
     * Waits until whichever process {@code current} names at the time answers /ready with 200: a
     * supervisor may replace a process that ended meanwhile.
     * @throws IllegalStateException with the last process's output, when none is ready within {@code timeout}
     */
    public static void awaitReady(Supplier<SeckillProcess> current, Duration timeout) throws InterruptedException {
        awaitReady(current, false, timeout);
    }

    /** @param endedIsFinal whether a process that ended fails the wait at once (nobody starts it again) */
    private static void awaitReady(Supplier<SeckillProcess> current, boolean endedIsFinal, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!current.get().ready()) {
            if ((endedIsFinal && !current.get().alive()) || Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(current.get().name + " is not ready; its output:\n"
                        + current.get().output());
            }
            Thread.sleep(250);
        }
    }

    /**
     * The working copy whose module's tests run now: Maven runs them in the module's folder, somewhere below the one
     * that holds {@code bin/seckill}.
     */
    public static Path repositoryOfModuleUnderTest() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("bin/seckill"))) {
                return folder;
            }
        }
        throw new IllegalStateException("no bin/seckill above " + Path.of("").toAbsolutePath());
    }

    /** The process's id: the JVM's own, for bin/seckill hands its process over to the JVM ({@code exec}). */
    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The exit status once the process has ended. */
    public Optional<Integer> exitCode() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** kill -9: no shutdown hook runs, nothing is closed. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then waits for the orderly shutdown. @return whether it ended in time */
    public boolean stop(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGSTOP: the process holds its sockets open and answers nothing, like a stalled server. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Signals.send(process.pid(), signal);
    }

    /** SIGTERM, and whatever is still running after {@code timeout} is closed as by {@link #close()}. */
    public void stopOrKill(Duration timeout) {
        try {
            if (stop(timeout)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
    }

    /** Whatever state it is in: resumed if paused, then killed with its children. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                resume();
            } catch (IOException | IllegalStateException e) {
                // It may have ended meanwhile; it is killed below either way.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A /ready answer: whether it was 200, and the body naming each check. */
    public record Readiness(boolean ready, JsonNode body) {

        /** The detail of one check, e.g. the partitions a consumer holds. */
        public String detail(String check) {
            return body.path("checks").path(check).path("detail").asText();
        }
    }
}
