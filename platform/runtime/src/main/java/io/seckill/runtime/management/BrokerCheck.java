package io.seckill.runtime.management;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/** The readiness check "kafka": the cluster answers a metadata request within two seconds. */
public final class BrokerCheck {

    private static final long TIMEOUT_MS = 2_000;

    private BrokerCheck() {
    }

    /** Adds the check, asking through {@code admin} (which the caller owns and closes). */
    public static void addTo(Readiness readiness, Admin admin) {
        readiness.reachable("kafka", () -> admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
    }
}
