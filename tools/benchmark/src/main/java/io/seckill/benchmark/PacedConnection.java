package io.seckill.benchmark;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.locks.LockSupport;

/**
 * One load generator connection's way of sending: each request waits for its due time (an open loop's schedule; a
 * closed loop's requests are due at once), goes out on a keep-alive connection opened when first needed, and a
 * failure closes that connection so the next request opens a fresh one.
 */
final class PacedConnection implements AutoCloseable {

    /** What {@link #send} answers for a request that got no answer. */
    static final int NO_ANSWER = -1;

    private final String host;
    private final int port;
    private HttpConnection connection;

    PacedConnection(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /**
     * @param due  when the request is to go ({@link System#nanoTime()}'s clock)
     * @param body where a fixed-length answer's body goes, or null
     * @return the answer's status, or {@link #NO_ANSWER}
     */
    int send(long due, byte[] request, ByteArrayOutputStream body) {
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
        try {
            if (connection == null) {
                connection = new HttpConnection(host, port);
            }
            return connection.exchange(request, body);
        } catch (Exception e) {
            close();
            return NO_ANSWER;
        }
    }

    @Override
    public void close() {
        HttpConnection.closeQuietly(connection);
        connection = null;
    }
}
