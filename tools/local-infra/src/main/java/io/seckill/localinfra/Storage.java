package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Where an embedded server writes: a scratch directory that dies with it (tests), or a kept one (development). */
record Storage(Path directory, boolean scratch) {

    static Storage scratch(String prefix) {
        try {
            return new Storage(Files.createTempDirectory(prefix), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Storage kept(Path directory) {
        return new Storage(directory, false);
    }

    /** True when nothing has been written here yet. */
    boolean isNew() {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Called after the server stopped: deletes a scratch directory, keeps any other. */
    void release() {
        if (!scratch) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Best effort: the OS cleans its temp directory anyway.
        }
    }
}
