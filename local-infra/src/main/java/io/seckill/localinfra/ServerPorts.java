package io.seckill.localinfra;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The loopback ports of one data directory's servers, chosen free on its first start and kept: a
 * restarted server comes back where the services already running look for it.
 */
record ServerPorts(int kafka, int kafkaController, int redis, int mysql) {

    static ServerPorts of(Path file) {
        if (Files.exists(file)) {
            return read(file);
        }
        int[] free = FreePort.pick(4);
        ServerPorts ports = new ServerPorts(free[0], free[1], free[2], free[3]);
        ports.write(file);
        return ports;
    }

    private static ServerPorts read(Path file) {
        Properties values = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            values.load(in);
            return new ServerPorts(port(values, "kafka", file), port(values, "kafka.controller", file),
                    port(values, "redis", file), port(values, "mysql", file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static int port(Properties values, String name, Path file) {
        String value = values.getProperty(name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " has no valid port for " + name + " (was '" + value
                    + "'); delete the file to choose new ports", e);
        }
    }

    private void write(Path file) {
        Properties values = new Properties();
        values.setProperty("kafka", Integer.toString(kafka));
        values.setProperty("kafka.controller", Integer.toString(kafkaController));
        values.setProperty("redis", Integer.toString(redis));
        values.setProperty("mysql", Integer.toString(mysql));
        try (Writer out = Files.newBufferedWriter(file)) {
            values.store(out, "ports of the development servers of this data directory");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
