package io.seckill.runtime;

import io.seckill.config.Env;
import io.seckill.runtime.management.FatalFailures;
import io.seckill.runtime.management.ManagedProcess;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a service process: its management port first (so a supervisor sees it starting), then
 * the service, then wait for SIGTERM/Ctrl-C and close both once. A service that cannot start, or a
 * part of it that cannot continue, ends the process with {@link #EXIT_CANNOT_CONTINUE} and the reason
 * in the log: a supervisor restarts it.
 */
public final class ServiceMain {

    /** EX_SOFTWARE of sysexits.h: an internal error, worth a restart. */
    public static final int EXIT_CANNOT_CONTINUE = 70;
    private static final Logger LOG = LoggerFactory.getLogger(ServiceMain.class);

    private ServiceMain() {
    }

    /** Runs {@code starter}'s service until the process is told to stop. */
    public static void run(String service, int defaultManagementPort, Env env, ManagedProcess.Starter<?> starter) {
        ManagedProcess management = ManagedProcess.open(service, defaultManagementPort, env, exitProcess(service));
        AutoCloseable running;
        try {
            running = management.start(starter);
        } catch (Exception e) {
            LOG.error("{} could not start; exiting", service, e);
            management.close();
            System.exit(EXIT_CANNOT_CONTINUE);
            return;
        }
        runUntilStopped(() -> {
            try {
                running.close();
            } finally {
                management.close();
            }
        });
    }

    /** Exits from a thread of its own: the failing thread may be one the shutdown hook waits for. */
    public static FatalFailures exitProcess(String service) {
        return (part, cause) -> {
            LOG.error("{}: {} cannot continue; exiting with status {} so that it is restarted",
                    service, part, EXIT_CANNOT_CONTINUE, cause);
            new Thread(() -> System.exit(EXIT_CANNOT_CONTINUE), "exit-" + part).start();
        };
    }

    /** Blocks until SIGTERM/Ctrl-C, then closes {@code service} once, in the shutdown hook. */
    private static void runUntilStopped(AutoCloseable service) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                service.close();
            } catch (Exception e) {
                LOG.warn("stopping failed", e);
            } finally {
                stopped.countDown();
            }
        }, "service-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
