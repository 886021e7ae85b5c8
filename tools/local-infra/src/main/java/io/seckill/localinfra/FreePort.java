package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

final class FreePort {

    private FreePort() {
    }

    static int pick() {
        return pick(1)[0];
    }

    /**
     * Distinct free ports: all are held open until all are chosen, because the system may hand out
     * a port it just released again (it did: a broker got one port for both its listeners).
     */
    static int[] pick(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                held.add(socket);
                socket.setReuseAddress(true);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a listening socket nobody connected to: nothing to recover
                }
            }
        }
    }
}
