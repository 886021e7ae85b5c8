package io.seckill.localinfra;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.IntStream;

/**
 * The ports of a local cluster's nodes, chosen free on its first start and kept in a file with its data: the nodes' own
 * files (a Redis node's nodes.conf, a Kafka node's quorum) name each other's ports.
 */
final class KeptPorts {

    private KeptPorts() {
    }

    /** {@code count} ports, read from {@code file}, or chosen now and written to it. */
    static int[] in(Path file, int count, String what) {
        Properties values = new Properties();
        try {
            if (Files.exists(file)) {
                try (Reader in = Files.newBufferedReader(file)) {
                    values.load(in);
                }
                return IntStream.range(0, count).map(i -> Integer.parseInt(values.getProperty("port-" + i))).toArray();
            }
            int[] ports = FreePort.pick(count);
            for (int i = 0; i < ports.length; i++) {
                values.setProperty("port-" + i, Integer.toString(ports[i]));
            }
            try (Writer out = Files.newBufferedWriter(file)) {
                values.store(out, "ports of " + what);
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the ports of " + what + " in " + file, e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    file + " does not name " + count + " ports; delete its folder to form a new " + what, e);
        }
    }
}
