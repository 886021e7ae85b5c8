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
record ServerPorts(int kafka, int kafkaController, int kafkaBroker, int redis, int mysql) {

    static ServerPorts of(Path file) {
        if (Files.exists(file)) {
            return read(file);
        }
        int[] free = FreePort.pick(5);
        ServerPorts ports = new ServerPorts(free[0], free[1], free[2], free[3], free[4]);
        ports.write(file);
        return ports;
    }

    private static ServerPorts read(Path file) {
        Properties values = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            values.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        ServerPorts ports = new ServerPorts(port(values, "kafka", file), port(values, "kafka.controller", file),
                values.containsKey("kafka.broker") ? port(values, "kafka.broker", file) : FreePort.pick(),
                port(values, "redis", file), port(values, "mysql", file));
        if (!values.containsKey("kafka.broker")) {
            // A data directory from before the broker had a listener of its own: the new port is kept from now on.
            ports.write(file);
        }
        return ports;
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
        values.setProperty("kafka.broker", Integer.toString(kafkaBroker));
        values.setProperty("redis", Integer.toString(redis));
        values.setProperty("mysql", Integer.toString(mysql));
        try (Writer out = Files.newBufferedWriter(file)) {
            values.store(out, "ports of the development servers of this data directory");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
