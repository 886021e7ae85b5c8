package io.seckill.benchmark;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The load every benchmark command takes: connections, measured time per run, rounds to take medians of. */
final class LoadOptions {

    @Option(
            names = "--connections",
            defaultValue = "32",
            description = "concurrent connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(
            names = "--duration",
            defaultValue = "PT10S",
            description = "measured time per run, ISO-8601 (default ${DEFAULT-VALUE})")
    Duration duration;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "rounds; medians are reported (default ${DEFAULT-VALUE})")
    int rounds;
}
