package io.seckill.processdriver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** POSIX signals to processes this JVM did not start (a server's child: mysqld, redis-server), by pid. */
public final class Signals {

    private Signals() {
    }

    /** @param signal e.g. STOP, CONT, KILL */
    public static void send(long pid, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }

    /** The pid a server wrote to its pid file. */
    public static long pidIn(Path pidFile) throws IOException {
        return Long.parseLong(Files.readString(pidFile).trim());
    }
}
