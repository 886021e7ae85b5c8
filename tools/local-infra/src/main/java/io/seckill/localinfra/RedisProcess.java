package io.seckill.localinfra;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server process started from embedded-redis's binary and command line, in a session of its own
 * ({@link OwnSession}), and stopped only when asked. embedded-redis's own start registers a shutdown hook that
 * stops the server: run beside {@link LocalInfrastructure}'s hook, it stopped Redis under services still closing.
 */
final class RedisProcess implements AutoCloseable {

    private static final String READY = "eady to accept connections";
    /** Lines of output kept to say why a server did not start. */
    private static final int KEPT_LINES = 20;
    private static final long STOP_WAIT_SECONDS = 30;

    private final Process process;

    private RedisProcess(Process process) {
        this.process = process;
    }

    /** Starts {@code commandLine} (the binary, then its arguments); returns once the server accepts connections. */
    static RedisProcess start(List<String> commandLine) throws IOException {
        Process process = new ProcessBuilder(OwnSession.command(commandLine))
                .directory(Path.of(commandLine.get(0)).getParent().toFile()).redirectErrorStream(true).start();
        BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Deque<String> lastLines = new ArrayDeque<>();
        String line;
        while ((line = output.readLine()) != null && !line.contains(READY)) {
            if (lastLines.size() == KEPT_LINES) {
                lastLines.removeFirst();
            }
            lastLines.addLast(line);
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("redis-server exited before accepting connections: " + String.join("\n", lastLines));
        }
        // Read on, so that a full pipe never blocks the server, until its stop closes the pipe.
        Thread drain = new Thread(() -> drain(output), "redis-server-output");
        drain.setDaemon(true);
        drain.start();
        return new RedisProcess(process);
    }

    private static void drain(BufferedReader output) {
        try {
            String line;
            do {
                line = output.readLine();
            } while (line != null);
        } catch (IOException closedByStop) {
            // The server is stopping: nothing more to read.
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while redis-server stopped", e));
        }
    }
}
