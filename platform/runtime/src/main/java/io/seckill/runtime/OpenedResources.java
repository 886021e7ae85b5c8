package io.seckill.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a service opened while starting (pools, clients, threads), closed in the reverse order of
 * opening: when the service stops, or at once when a later step of its start fails, so that a start
 * that throws leaves no thread or connection behind.
 */
public final class OpenedResources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OpenedResources.class);

    /** How one resource is closed, when not by {@link AutoCloseable#close()} (e.g. with a bound). */
    @FunctionalInterface
    public interface Closer<T> {
        void close(T resource) throws Exception;
    }

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Keeps {@code resource} to be closed before everything opened earlier. @return the resource */
    public <T extends AutoCloseable> T add(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Keeps {@code resource}, closed by {@code closer}. @return the resource */
    public <T> T add(T resource, Closer<T> closer) {
        opened.push(() -> closer.close(resource));
        return resource;
    }

    /**
     * Closes everything after a failed start; what could not be closed is attached to {@code failure} as suppressed.
     */
    public void closeAfter(Throwable failure) {
        closeAll(failure);
    }

    /** Closes everything, the last opened first; a resource that fails to close does not keep the others open. */
    @Override
    public void close() {
        closeAll(null);
    }

    private void closeAll(Throwable failure) {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (failure != null) {
                    failure.addSuppressed(e);
                } else {
                    LOG.warn("closing failed; closing the rest", e);
                }
            }
        }
    }
}
