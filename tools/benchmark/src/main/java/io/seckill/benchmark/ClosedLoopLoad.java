package io.seckill.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop load: each of C connections sends its next request as soon as the previous answer is
 * in. Latency is recorded from send to the end of the response, after a warm-up, in HdrHistogram, for the answers the
 * scenario expects; an unexpected status or a failed exchange is counted apart, never as speed.
 */
final class ClosedLoopLoad {

    private final String host;
    private final int port;
    private final int connections;
    private final Duration warmup;
    private final Duration duration;
    /** Numbers requests across every run, so "a fresh buyer per request" stays fresh in later rounds. */
    private final AtomicLong sequence = new AtomicLong();

    ClosedLoopLoad(String host, int port, int connections, Duration warmup, Duration duration) {
        this.host = host;
        this.port = port;
        this.connections = connections;
        this.warmup = warmup;
        this.duration = duration;
    }

    Result run(Scenario scenario) throws InterruptedException {
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long measureTo = measureFrom + duration.toNanos();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Worker worker = new Worker(scenario, measureFrom, measureTo);
            workers.add(worker);
            worker.thread.start();
        }
        Histogram latencies = new Histogram(3);
        long unexpected = 0;
        long failures = 0;
        Map<Integer, Long> statuses = new TreeMap<>();
        for (Worker worker : workers) {
            worker.thread.join();
            latencies.add(worker.latencies);
            unexpected += worker.unexpected;
            failures += worker.failures;
            worker.statuses.forEach((status, count) -> statuses.merge(status, count, Long::sum));
        }
        return new Result(scenario.name(), latencies, duration, unexpected, failures, statuses);
    }

    private final class Worker implements Runnable {
        final Thread thread = new Thread(this, "load");
        final Histogram latencies = new Histogram(3);
        final Scenario scenario;
        final long measureFrom;
        final long measureTo;
        long unexpected;
        long failures;
        final Map<Integer, Long> statuses = new HashMap<>();

        Worker(Scenario scenario, long measureFrom, long measureTo) {
            this.scenario = scenario;
            this.measureFrom = measureFrom;
            this.measureTo = measureTo;
        }

        @Override
        public void run() {
            HttpConnection connection = null;
            while (System.nanoTime() < measureTo) {
                try {
                    if (connection == null) {
                        connection = new HttpConnection(host, port);
                    }
                    byte[] request = scenario.request().apply(sequence.getAndIncrement());
                    long sent = System.nanoTime();
                    int status = connection.exchange(request);
                    long done = System.nanoTime();
                    if (sent >= measureFrom && done <= measureTo) {
                        statuses.merge(status, 1L, Long::sum);
                        if (scenario.expectedStatuses().contains(status)) {
                            latencies.recordValue(done - sent);
                        } else {
                            unexpected++;
                        }
                    }
                } catch (Exception e) {
                    failures++;
                    HttpConnection.closeQuietly(connection);
                    connection = null;
                }
            }
            HttpConnection.closeQuietly(connection);
        }
    }

    /**
     * Figures of one scenario run; latencies in nanoseconds, of the expected answers; how many measured answers had
     * each status.
     */
    record Result(
            String scenario,
            Histogram latencies,
            Duration duration,
            long unexpectedStatus,
            long failures,
            Map<Integer, Long> statuses) {

        /** Expected answers per second. */
        double requestsPerSecond() {
            return latencies.getTotalCount() / (duration.toNanos() / 1e9);
        }

        /** Whether every measured request got an answer the scenario expects. */
        boolean clean() {
            return unexpectedStatus == 0 && failures == 0;
        }

        double percentileMillis(double percentile) {
            return latencies.getValueAtPercentile(percentile) / 1e6;
        }
    }
}
