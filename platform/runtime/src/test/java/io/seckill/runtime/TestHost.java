package io.seckill.runtime;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.runtime.management.Readiness;
import io.seckill.runtime.management.ServiceHost;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ServiceHost} for tests that run services inside the test JVM: meters in memory, and a
 * fatal failure remembered for the test to assert on instead of ending the JVM.
 */
public final class TestHost {

    private final List<String> fatalFailures = new CopyOnWriteArrayList<>();
    private final ServiceHost host;

    public TestHost() {
        this(Clock.systemUTC());
    }

    /** A host whose services read business time from {@code clock}. */
    public TestHost(Clock clock) {
        this.host = new ServiceHost(
                new SimpleMeterRegistry(),
                new Readiness(),
                (part, cause) -> fatalFailures.add(part + ": " + cause),
                clock);
    }

    public ServiceHost host() {
        return host;
    }

    public Readiness.Report readiness() {
        return host.readiness().evaluate();
    }

    /** "part: cause" of each failure reported as fatal. */
    public List<String> fatalFailures() {
        return List.copyOf(fatalFailures);
    }
}
