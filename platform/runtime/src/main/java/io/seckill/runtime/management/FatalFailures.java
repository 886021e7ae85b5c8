package io.seckill.runtime.management;

/**
 * Where a part of a service reports that it cannot continue (a consumer loop that died, a Streams
 * client in ERROR). A service process exits non-zero so that its supervisor restarts it; a process
 * that is alive but does nothing is the failure this prevents.
 */
@FunctionalInterface
public interface FatalFailures {

    void cannotContinue(String part, Throwable cause);
}
