package io.seckill.runtime;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.LogFormat;
import io.seckill.runtime.management.FatalFailures;
import io.seckill.runtime.management.ManagedProcess;
import io.seckill.runtime.management.ServiceHost;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a service process: its configuration read and checked before anything listens (a setting
 * it refuses ends the process with one line naming it), its management port next (so a supervisor sees
 * it starting), then the service, then wait for SIGTERM/Ctrl-C and close both once. A service that
 * cannot start, or a part of it that cannot continue, ends the process with {@link #EXIT_CANNOT_CONTINUE}
 * and the reason in the log: a supervisor restarts it.
 */
public final class ServiceMain {

    /** EX_SOFTWARE of sysexits.h: an internal error, worth a restart. */
    public static final int EXIT_CANNOT_CONTINUE = 70;
    private static final Logger LOG = LoggerFactory.getLogger(ServiceMain.class);

    private ServiceMain() {
    }

    /** Starts a service from its configuration. */
    @FunctionalInterface
    public interface Starter<C, T extends AutoCloseable> {
        T start(C configuration, ServiceHost host) throws Exception;
    }

    /**
     * Runs {@code starter}'s service, configured by {@code configuration} from {@code env}, until the process is told
     * to stop.
     */
    public static <C, T extends AutoCloseable> void run(
            String service, int defaultManagementPort, Env env, Function<Env, C> configuration, Starter<C, T> starter) {
        C configured = configure(service, env, configuration);
        ManagedProcess management = ManagedProcess.open(service, defaultManagementPort, env, exitProcess(service));
        AutoCloseable running;
        try {
            running = management.start(host -> starter.start(configured, host));
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

    /**
     * The configuration, and the process's {@link DeploymentMode} said in the log; a setting that is refused (missing,
     * malformed, a published secret outside development mode) ends the process with one line naming it.
     */
    private static <C> C configure(String service, Env env, Function<Env, C> configuration) {
        checkLogFormat(service, env);
        try {
            DeploymentMode mode = DeploymentMode.of(env);
            C configured = configuration.apply(env);
            switch (mode) {
                case PRODUCTION -> LOG.info("{} starts in production mode", service);
                case DEVELOPMENT ->
                    LOG.warn(
                            "{} starts in DEVELOPMENT mode ({}=development): published development credentials and the"
                                    + " development payment port are accepted; never let it serve anyone",
                            service,
                            DeploymentMode.SETTING);
            }
            return configured;
        } catch (IllegalArgumentException refused) {
            LOG.error(
                    "{} refused to start: {}; exiting with status {}",
                    service,
                    refused.getMessage(),
                    EXIT_CANNOT_CONTINUE);
            System.exit(EXIT_CANNOT_CONTINUE);
            throw refused;
        }
    }

    /**
     * Ends the process when {@link LogFormat} refuses the setting, said on standard error: with no such format the log
     * has nowhere to go.
     */
    public static void checkLogFormat(String service, Env env) {
        try {
            LogFormat.of(env);
        } catch (IllegalArgumentException refused) {
            System.err.println(service + " refused to start: " + refused.getMessage() + "; exiting with status "
                    + EXIT_CANNOT_CONTINUE);
            System.exit(EXIT_CANNOT_CONTINUE);
        }
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
