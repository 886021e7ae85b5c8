package io.seckill.ingress.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The files the ingress serves from its jar, read once at start. */
public final class ClasspathResources {

    private ClasspathResources() {
    }

    /** @throws IllegalStateException when the jar lacks it: a build that left it out does not start */
    public static byte[] read(String name) {
        try (InputStream in = ClasspathResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
