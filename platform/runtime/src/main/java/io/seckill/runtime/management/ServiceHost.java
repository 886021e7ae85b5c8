package io.seckill.runtime.management;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;

/**
 * What the process a service runs in gives it: the registry its meters go to, the readiness checks it
 * adds to, where it reports a failure it cannot recover from, and the clock every business time is
 * read from (a test moves it). One process may host several services (development mode): they share
 * them all.
 */
public record ServiceHost(MeterRegistry meters, Readiness readiness, FatalFailures fatal, Clock clock) {
}
