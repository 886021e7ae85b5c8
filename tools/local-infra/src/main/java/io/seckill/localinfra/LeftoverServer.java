package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mysqld and redis-server run as child processes of the servers' JVM. When that JVM is killed with
 * kill -9 they outlive it, holding the data directory's ports and files; the next start stops them
 * first, found by the pid files they write in the data directory.
 */
final class LeftoverServer {

    private static final Logger LOG = LoggerFactory.getLogger(LeftoverServer.class);
    private static final long STOP_SECONDS = 30;

    private LeftoverServer() {
    }

    /**
     * Stops the process named in {@code pidFile} if it still runs {@code program} (the binary's name
     * starts with it: embedded-redis adds its version); a stale file is ignored.
     */
    static void stop(Path pidFile, String program) {
        Optional<ProcessHandle> leftover = read(pidFile).flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command()
                        .map(command -> Path.of(command).getFileName().toString().startsWith(program)).orElse(false));
        if (leftover.isEmpty()) {
            return;
        }
        ProcessHandle process = leftover.get();
        LOG.warn(
                "{} (pid {}) of an earlier run still holds {}; stopping it",
                program,
                process.pid(),
                pidFile.getParent());
        process.destroy();
        try {
            process.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot wait for " + program + " to stop", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping " + program, e);
        }
    }

    private static Optional<Long> read(Path pidFile) {
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pidFile, e);
        }
    }
}
