package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The development servers' {@code servers.env}: their addresses and the development credentials, for
 * {@code bin/seckill} to read. It holds secrets, so only its owner may read it: it is written to a new
 * file created owner-only and moved over the old one, never readable by others, not even for a moment.
 */
final class EnvFile {

    private EnvFile() {
    }

    static void write(Path file, Map<String, String> variables) {
        StringBuilder lines =
                new StringBuilder("# Written by the development servers at start; read by bin/seckill.\n");
        variables.forEach((name, value) -> lines.append(name).append('=').append(value).append('\n'));
        Path directory = file.toAbsolutePath().getParent();
        try {
            Path fresh = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempFile(
                            directory,
                            ".servers",
                            ".env",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(directory, ".servers", ".env");
            Files.writeString(fresh, lines);
            Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
