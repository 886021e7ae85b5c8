package io.seckill.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection doing one request at a time. Deliberately minimal and with its own
 * unsynchronised read buffer, so the load generator spends as little as possible of the two cores it
 * shares with the server, and the same per byte whatever the route answers.
 */
final class HttpConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final byte[] buffer = new byte[16 * 1024];
    private int position;
    private int limit;
    private final StringBuilder line = new StringBuilder(128);

    HttpConnection(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Sends a complete request and reads the whole response. @return the status code */
    int exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    /**
     * The same, keeping the response's body (a fixed-length one) in {@code body} when it is not null: a
     * caller that needs what a winner was answered (its order id).
     */
    int exchange(byte[] request, ByteArrayOutputStream body) throws IOException {
        out.write(request);
        out.flush();
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long contentLength = -1;
        boolean chunked = false;
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                contentLength = Long.parseLong(header.substring(colon + 1).trim());
            } else if (name.equalsIgnoreCase("Transfer-Encoding")
                    && header.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(readLine().trim(), 16);
                    size > 0;
                    size = Long.parseLong(readLine().trim(), 16)) {
                skip(size);
                readLine();
            }
            readLine();
        } else if (contentLength > 0) {
            if (body == null) {
                skip(contentLength);
            } else {
                body.reset();
                copy(contentLength, body);
            }
        }
        return status;
    }

    private String readLine() throws IOException {
        line.setLength(0);
        for (int b = next(); b != '\n'; b = next()) {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private void skip(long bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            if (position == limit) {
                fill();
            }
            int taken = (int) Math.min(left, limit - position);
            position += taken;
            left -= taken;
        }
    }

    private void copy(long bytes, ByteArrayOutputStream into) throws IOException {
        long left = bytes;
        while (left > 0) {
            if (position == limit) {
                fill();
            }
            int taken = (int) Math.min(left, limit - position);
            into.write(buffer, position, taken);
            position += taken;
            left -= taken;
        }
    }

    private int next() throws IOException {
        if (position == limit) {
            fill();
        }
        return buffer[position++] & 0xFF;
    }

    private void fill() throws IOException {
        int read = in.read(buffer, 0, buffer.length);
        if (read < 0) {
            throw new EOFException("connection closed");
        }
        position = 0;
        limit = read;
    }

    /** Closes a connection being abandoned after a failure; a failure to close it changes nothing. */
    static void closeQuietly(HttpConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // abandoned anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
