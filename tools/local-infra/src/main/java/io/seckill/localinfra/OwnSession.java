package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A server's command line run in a session of its own (util-linux's {@code setsid}, which a child that leads no process
 * group runs in place: the server keeps the pid it was started with). A terminal's Ctrl-C signals its foreground
 * process group, the JVM that started the servers and, without this, the servers too: they stopped at once, under the
 * services the JVM was still closing. In a session of their own they are stopped by that JVM, after its services.
 */
final class OwnSession {

    private OwnSession() {
    }

    static List<String> command(List<String> commandLine) {
        List<String> command = new ArrayList<>(commandLine.size() + 1);
        command.add("setsid");
        command.addAll(commandLine);
        return command;
    }

    /**
     * Writes {@code script}, which runs {@code executable} with its arguments in a session of its own, for a library
     * that starts a server from the path of its binary alone.
     */
    static Path script(Path script, Path executable) {
        String quoted = "'" + executable.toString().replace("'", "'\\''") + "'";
        try {
            Files.writeString(script, "#!/bin/sh\nexec setsid " + quoted + " \"$@\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + script, e);
        }
        return script;
    }
}
