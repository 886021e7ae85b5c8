package io.seckill.benchmark;

import io.seckill.buyeraccess.passes.SalePasses;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * Every buy attempt of a whole sale sent to one design, each connection taking the next attempt as soon as
 * its previous answer is in (closed loop), or each attempt sent at its own time on a fixed schedule (open
 * loop: its latency counts from when it was due, so a stalled server is charged for the requests it kept
 * waiting, not only for the ones in flight; coordinated omission corrected). Winners (2xx, their order id
 * kept) and losers (409) are recorded apart; every other status, a 2xx without an order id and a connection that gave
 * no answer count as failed, never as speed. Answers are also counted per time slice, for the chart.
 */
final class WholeSaleLoad {

    static final long SLICE_MS = 250;
    /** The credential the load sends as the gateway in front of each design; the baselines do not ask for it. */
    static final String GATEWAY_SECRET = "whole-sale-benchmark-gateway-credential";
    private static final int MAX_SLICES = 4 * 60 * 20;
    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\":\"([^\"]+)\"");

    /** One buy request: a buyer, a SKU, a quantity. */
    record Attempt(String buyer, long sku, int quantity) {
    }

    /** A winner's order as answered, with when (epoch ms). */
    record Accepted(String orderId, String buyer, long sku, int quantity, long answeredAtMs) {
    }

    /**
     * @param failed attempts answered with anything but a winner's 2xx or a loser's 409, or not at all
     * @param answersPerSlice winners' and losers' answers completed in each {@link #SLICE_MS} from the start
     */
    // An outcome is read, never compared or hashed: the arrays' identity equality does not matter.
    @SuppressWarnings("ArrayRecordComponent")
    record Outcome(
            Histogram winners,
            Histogram losers,
            long failed,
            long seconds100,
            List<Accepted> accepted,
            long[] answersPerSlice) {

        double seconds() {
            return seconds100 / 100.0;
        }

        /** Answered requests (winners and losers) per second: a failed request is no speed. */
        double requestsPerSecond() {
            return (winners.getTotalCount() + losers.getTotalCount()) / seconds();
        }
    }

    /** How a request names its buyer: the header lines (without the last line's end) that say who buys. */
    @FunctionalInterface
    interface BuyerHeaders {

        String of(String buyer);

        /** As the gateway in front of each design names buyers; the baselines do not ask for its credential. */
        static BuyerHeaders throughGateway() {
            return buyer -> "X-Gateway-Secret: " + GATEWAY_SECRET + "\r\nX-User-Id: " + buyer;
        }

        /** Each buyer's own bearer token, minted before the load (signing is not the generator's work during it). */
        static BuyerHeaders byTokens(Map<String, String> tokenOfBuyer) {
            return buyer -> "Authorization: Bearer " + tokenOfBuyer.get(buyer);
        }
    }

    private final String host;
    private final int port;
    private final int connections;
    private final BuyerHeaders buyerHeaders;

    WholeSaleLoad(String host, int port, int connections, BuyerHeaders buyerHeaders) {
        this.host = host;
        this.port = port;
        this.connections = connections;
        this.buyerHeaders = buyerHeaders;
    }

    /** How {@link SaleDesign#passes} names a buyer's pass to a SKU. */
    static String passKey(long sku, String buyer) {
        return sku + ":" + buyer;
    }

    /**
     * @param passes        each attempt's sale pass, by {@link #passKey}; an attempt without one is sent without
     * @param ratePerSecond 0: closed loop; else the open loop's fixed rate
     * @param onAccepted told of each winner as its answer arrives
     */
    Outcome run(List<Attempt> attempts, Map<String, String> passes, double ratePerSecond, Consumer<Accepted> onAccepted)
            throws InterruptedException {
        Map<String, String> passOf = Map.copyOf(passes);
        AtomicInteger next = new AtomicInteger();
        AtomicLongArray slices = new AtomicLongArray(MAX_SLICES);
        long start = System.nanoTime();
        long interval = ratePerSecond > 0 ? (long) (1e9 / ratePerSecond) : 0;
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Worker worker = new Worker(attempts, passOf, next, slices, start, interval, onAccepted);
            workers.add(worker);
            worker.thread.start();
        }
        Histogram winners = new Histogram(3);
        Histogram losers = new Histogram(3);
        long failed = 0;
        List<Accepted> accepted = new ArrayList<>();
        for (Worker worker : workers) {
            worker.thread.join();
            winners.add(worker.winners);
            losers.add(worker.losers);
            failed += worker.failed;
            accepted.addAll(worker.accepted);
        }
        long elapsed = System.nanoTime() - start;
        int used = (int) Math.min(MAX_SLICES, elapsed / (SLICE_MS * 1_000_000) + 1);
        long[] perSlice = new long[used];
        for (int i = 0; i < used; i++) {
            perSlice[i] = slices.get(i);
        }
        return new Outcome(winners, losers, failed, Math.max(1, elapsed / 10_000_000), accepted, perSlice);
    }

    private byte[] request(Attempt attempt, Map<String, String> passes) {
        byte[] body = ("{\"quantity\":" + attempt.quantity() + "}").getBytes(StandardCharsets.UTF_8);
        String pass = passes.get(passKey(attempt.sku(), attempt.buyer()));
        String head = "POST /api/v1/skus/" + attempt.sku() + "/orders HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
                + buyerHeaders.of(attempt.buyer())
                + (pass == null ? "" : "\r\n" + SalePasses.HEADER + ": " + pass)
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return request;
    }

    private final class Worker implements Runnable {
        final Thread thread = new Thread(this, "whole-sale-load");
        final Histogram winners = new Histogram(3);
        final Histogram losers = new Histogram(3);
        final List<Accepted> accepted = new ArrayList<>();
        final List<Attempt> attempts;
        final Map<String, String> passes;
        final AtomicInteger next;
        final AtomicLongArray slices;
        final long start;
        final long interval;
        final Consumer<Accepted> onAccepted;
        long failed;

        Worker(
                List<Attempt> attempts,
                Map<String, String> passes,
                AtomicInteger next,
                AtomicLongArray slices,
                long start,
                long interval,
                Consumer<Accepted> onAccepted) {
            this.attempts = attempts;
            this.onAccepted = onAccepted;
            this.passes = passes;
            this.next = next;
            this.slices = slices;
            this.start = start;
            this.interval = interval;
        }

        @Override
        public void run() {
            ByteArrayOutputStream body = new ByteArrayOutputStream(256);
            try (PacedConnection connection = new PacedConnection(host, port)) {
                for (int index = next.getAndIncrement(); index < attempts.size(); index = next.getAndIncrement()) {
                    Attempt attempt = attempts.get(index);
                    long due = interval > 0 ? start + index * interval : System.nanoTime();
                    int status = connection.send(due, request(attempt, passes), body);
                    if (status == PacedConnection.NO_ANSWER) {
                        failed++;
                        continue;
                    }
                    long done = System.nanoTime();
                    if (record(attempt, status, body, done - due)) {
                        slices.incrementAndGet(
                                (int) Math.min(MAX_SLICES - 1, (done - start) / (SLICE_MS * 1_000_000)));
                    }
                }
            }
        }

        /** @return whether it was an answer: a winner's with its order id, or a loser's */
        private boolean record(Attempt attempt, int status, ByteArrayOutputStream body, long latency) {
            if (status >= 200 && status < 300) {
                Matcher orderId = ORDER_ID.matcher(body.toString(StandardCharsets.UTF_8));
                if (!orderId.find()) {
                    failed++;
                    return false;
                }
                Accepted order = new Accepted(
                        orderId.group(1),
                        attempt.buyer(),
                        attempt.sku(),
                        attempt.quantity(),
                        System.currentTimeMillis());
                winners.recordValue(latency);
                accepted.add(order);
                onAccepted.accept(order);
                return true;
            }
            if (status == 409) {
                losers.recordValue(latency);
                return true;
            }
            failed++;
            return false;
        }
    }
}
