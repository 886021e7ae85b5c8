package io.seckill.streamprocessor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A state directory of this instance's own under a shared parent: {@code instance-0}, {@code instance-1},
 * ..., the first one no running instance holds (an OS file lock, released when the process dies, even
 * by kill -9). Instances on one host never collide, and a restarted one takes a free slot back with
 * the local state it left there, so it restores from the changelog only what is missing.
 */
final class StateDirectorySlot implements AutoCloseable {

    private static final int MAX_SLOTS = 1024;

    private final Path directory;
    private final FileChannel channel;
    private final FileLock lock;

    private StateDirectorySlot(Path directory, FileChannel channel, FileLock lock) {
        this.directory = directory;
        this.channel = channel;
        this.lock = lock;
    }

    static StateDirectorySlot claim(Path parent) {
        try {
            Files.createDirectories(parent);
            for (int slot = 0; slot < MAX_SLOTS; slot++) {
                Path candidate = parent.resolve("instance-" + slot);
                FileChannel channel = FileChannel.open(parent.resolve("instance-" + slot + ".lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = tryLock(channel);
                if (lock != null) {
                    return new StateDirectorySlot(Files.createDirectories(candidate), channel, lock);
                }
                channel.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot claim a state directory under " + parent, e);
        }
        throw new IllegalStateException("all " + MAX_SLOTS + " state directory slots under " + parent + " are in use");
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldByThisProcess) {
            return null;
        }
    }

    Path directory() {
        return directory;
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
