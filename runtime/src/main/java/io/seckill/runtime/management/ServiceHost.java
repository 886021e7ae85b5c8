package io.seckill.runtime.management;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * What the process a service runs in gives it: the registry its meters go to, the readiness checks it
 * adds to, and where it reports a failure it cannot recover from. One process may host several services
 * (development mode): they share all three.
 */
public record ServiceHost(MeterRegistry meters, Readiness readiness, FatalFailures fatal) {
}
