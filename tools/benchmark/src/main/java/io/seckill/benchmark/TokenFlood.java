package io.seckill.benchmark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * One buyer's valid token sent many ways at once: the n-th request shows it followed by a padding no other request
 * shows (a character outside base64url, repeated to a length of its own, the request staying under Jetty's 8 KiB of
 * headers), on a fixed schedule (open loop: a request's latency counts from when it was due), from client addresses
 * named in {@code X-Forwarded-For} through the loopback proxy the ingress trusts: one attacker's address, or many
 * (the n-th request from the n-th mod {@code addresses} of 198.18.0.0/15, the benchmarking range).
 */
final class TokenFlood {

    /** Characters a lenient base64url decoder skips: each padding character with each length is one more spelling. */
    private static final String PADDING = "$~!*'(),;:@&#%^|";
    /** Jetty's default limit on a request's headers. */
    private static final int HEADER_LIMIT = 8 * 1024;
    /** The request line and every header but the token's padding, with room to spare. */
    private static final int OTHER_HEADERS = 400;

    /** How the flood was answered: requests per status, latency of all, and the requests that got no answer. */
    record Outcome(Map<Integer, Long> statuses, Histogram latency, long failed, double seconds) {

        long answered2xx() {
            return statuses.entrySet().stream()
                    .filter(entry -> entry.getKey() / 100 == 2)
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }
    }

    private final String host;
    private final int port;
    private final int connections;

    TokenFlood(String host, int port, int connections) {
        this.host = host;
        this.port = port;
        this.connections = connections;
    }

    /**
     * {@code requests} buys of {@code sku} showing {@code token} padded, at {@code ratePerSecond}, from {@code
     * addresses} addresses.
     */
    Outcome run(long sku, String token, int addresses, int requests, double ratePerSecond) throws InterruptedException {
        int longestPadding = HEADER_LIMIT - OTHER_HEADERS - token.length();
        if (requests > (long) PADDING.length() * longestPadding) {
            throw new IllegalArgumentException("a token of " + token.length() + " characters has fewer than " + requests
                    + " paddings under 8 KiB");
        }
        String line =
                "POST /api/v1/skus/" + sku + "/orders HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nX-Forwarded-For: ";
        String headers = "\r\nContent-Type: application/json\r\nContent-Length: 14\r\nAuthorization: Bearer " + token;
        byte[][] heads = new byte[addresses][];
        for (int a = 0; a < addresses; a++) {
            heads[a] = (line + "198." + (18 + a / 65_536) + "." + (a / 256 % 256) + "." + (a % 256) + headers)
                    .getBytes(StandardCharsets.US_ASCII);
        }
        byte[] tail = "\r\n\r\n{\"quantity\":1}".getBytes(StandardCharsets.US_ASCII);
        AtomicInteger next = new AtomicInteger();
        long interval = (long) (1e9 / ratePerSecond);
        long start = System.nanoTime();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Worker worker = new Worker(heads, tail, longestPadding, requests, next, start, interval);
            workers.add(worker);
            worker.thread.start();
        }
        Map<Integer, Long> statuses = new TreeMap<>();
        Histogram latency = new Histogram(3);
        long failed = 0;
        for (Worker worker : workers) {
            worker.thread.join();
            worker.statuses.forEach((status, count) -> statuses.merge(status, count, Long::sum));
            latency.add(worker.latency);
            failed += worker.failed;
        }
        return new Outcome(statuses, latency, failed, (System.nanoTime() - start) / 1e9);
    }

    private final class Worker implements Runnable {
        final Thread thread = new Thread(this, "token-flood");
        final Map<Integer, Long> statuses = new TreeMap<>();
        final Histogram latency = new Histogram(3);
        final byte[][] heads;
        final byte[] tail;
        final int longestPadding;
        final int requests;
        final AtomicInteger next;
        final long start;
        final long interval;
        long failed;

        Worker(
                byte[][] heads,
                byte[] tail,
                int longestPadding,
                int requests,
                AtomicInteger next,
                long start,
                long interval) {
            this.heads = heads;
            this.tail = tail;
            this.longestPadding = longestPadding;
            this.requests = requests;
            this.next = next;
            this.start = start;
            this.interval = interval;
        }

        @Override
        public void run() {
            try (PacedConnection connection = new PacedConnection(host, port)) {
                for (int n = next.getAndIncrement(); n < requests; n = next.getAndIncrement()) {
                    long due = start + n * interval;
                    int status = connection.send(due, request(n), null);
                    if (status == PacedConnection.NO_ANSWER) {
                        failed++;
                    } else {
                        latency.recordValue(System.nanoTime() - due);
                        statuses.merge(status, 1L, Long::sum);
                    }
                }
            }
        }

        /** The n-th spelling: padding character n mod 16, repeated 1 + (n / 16) mod the longest padding times. */
        private byte[] request(int n) {
            byte[] head = heads[n % heads.length];
            int padding = 1 + (n / PADDING.length()) % longestPadding;
            byte[] request = new byte[head.length + padding + tail.length];
            System.arraycopy(head, 0, request, 0, head.length);
            Arrays.fill(request, head.length, head.length + padding, (byte) PADDING.charAt(n % PADDING.length()));
            System.arraycopy(tail, 0, request, head.length + padding, tail.length);
            return request;
        }
    }
}
