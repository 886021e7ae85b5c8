package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

final class FreePort {

    private FreePort() {
    }

    static int pick() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }
}
