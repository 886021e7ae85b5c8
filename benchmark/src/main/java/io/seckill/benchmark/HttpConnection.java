package io.seckill.benchmark;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection doing one request at a time. Deliberately minimal, so the load
 * generator spends its share of the two cores on sending, not on a client library.
 */
final class HttpConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    HttpConnection(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    }

    /** Sends a complete request and reads the whole response. @return the status code */
    int exchange(byte[] request) throws IOException {
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
            } else if (name.equalsIgnoreCase("Transfer-Encoding") && header.toLowerCase().contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(readLine().trim(), 16); size > 0; size = Long.parseLong(readLine().trim(), 16)) {
                skip(size);
                readLine();
            }
            readLine();
        } else if (contentLength > 0) {
            skip(contentLength);
        }
        return status;
    }

    private String readLine() throws IOException {
        line.reset();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private void skip(long bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("connection closed in a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
