package io.seckill.runtime.management;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The named checks behind {@code /ready}: each part of a service adds what it needs (a server it must
 * reach, a consumer that must be alive and assigned, a Streams client that must be RUNNING). Until the
 * process says its services have started, the check "started" fails: a process whose parts have not
 * added their checks yet is not ready.
 */
public final class Readiness {

    /** One condition of readiness; throwing counts as DOWN with the exception as the reason. */
    @FunctionalInterface
    public interface Check {
        CheckResult check() throws Exception;
    }

    /** Up or down, with what an operator needs to know (the failure, the partitions held). */
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

    private final Map<String, Check> checks = new LinkedHashMap<>();
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
        current.forEach((name, check) -> results.put(name, run(check)));
        return new Report(results);
    }

    private static CheckResult run(Check check) {
        try {
            return check.check();
        } catch (Exception e) {
            return CheckResult.down(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }
}
