package io.seckill.runtime.management;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named checks behind {@code /ready}: each part of a service adds what it needs (a server it must
 * reach, a consumer that must be alive and assigned, a Streams client that must be RUNNING). Until the
 * process says its services have started, the check "started" fails: a process whose parts have not
 * added their checks yet is not ready. A check that throws is down, and why goes to the log, never to
 * {@code /ready}: whoever can reach the port learns names and states, not addresses, accounts or
 * stack traces. The log has each failure once, when the check goes down or fails another way.
 */
public final class Readiness {

    /** One condition of readiness; throwing counts as DOWN (the exception is logged). */
    @FunctionalInterface
    public interface Check {
        CheckResult check() throws Exception;
    }

    /**
     * Up or down, with a state an operator may see from anywhere (the partitions held, "retrying"): never an
     * exception's text.
     */
    public record CheckResult(boolean up, String detail) {

        public static CheckResult up(String detail) {
            return new CheckResult(true, detail);
        }

        public static CheckResult down(String detail) {
            return new CheckResult(false, detail);
        }
    }

    /** Every check's result, in the order they were added. */
    public record Report(Map<String, CheckResult> checks) {

        public boolean ready() {
            return checks.values().stream().allMatch(CheckResult::up);
        }
    }

    /** A probe that proves a server answers by not throwing. */
    @FunctionalInterface
    public interface Probe {
        void run() throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);
    static final String FAILED = "failed; the reason is in the service's log";

    private final Map<String, Check> checks = new LinkedHashMap<>();
    /** The failure each failing check last logged, so a failure goes to the log once, not at every probe. */
    private final Map<String, String> logged = new ConcurrentHashMap<>();
    private volatile boolean started;

    /** Called once every service of the process has started. */
    public void servicesStarted() {
        started = true;
    }

    public synchronized void add(String name, Check check) {
        if (checks.putIfAbsent(name, check) != null) {
            throw new IllegalArgumentException("a readiness check named " + name + " exists already");
        }
    }

    /** Adds {@code name} unless it is there: several parts of one process may need the same server. */
    public synchronized void reachable(String name, Probe probe) {
        checks.putIfAbsent(name, () -> {
            probe.run();
            return CheckResult.up("reachable");
        });
    }

    public Report evaluate() {
        Map<String, Check> current;
        synchronized (this) {
            current = new LinkedHashMap<>(checks);
        }
        Map<String, CheckResult> results = new LinkedHashMap<>();
        results.put("started", started ? CheckResult.up("services started") : CheckResult.down("starting"));
        current.forEach((name, check) -> results.put(name, run(name, check)));
        return new Report(results);
    }

    private CheckResult run(String name, Check check) {
        try {
            CheckResult result = check.check();
            logged.remove(name);
            return result;
        } catch (Exception e) {
            String failure = String.valueOf(e);
            if (!failure.equals(logged.put(name, failure))) {
                LOG.warn("readiness check {} failed", name, e);
            }
            return CheckResult.down(FAILED);
        }
    }
}
