package io.seckill.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Typed reads of environment variables with documented defaults; a malformed value fails fast by name. */
public final class Env {

    private final Map<String, String> variables;

    public Env(Map<String, String> variables) {
        this.variables = Map.copyOf(variables);
    }

    public static Env system() {
        return new Env(System.getenv());
    }

    /** This environment with {@code value} for {@code name} unless it already sets one. */
    public Env withDefault(String name, String value) {
        if (string(name, null) != null) {
            return this;
        }
        Map<String, String> merged = new HashMap<>(variables);
        merged.put(name, value);
        return new Env(merged);
    }

    public String string(String name, String defaultValue) {
        String value = variables.get(name);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    public int integer(String name, int defaultValue) {
        String value = string(name, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + value + "'", e);
        }
    }

    /** A duration in milliseconds. */
    public Duration millis(String name, Duration defaultValue) {
        String value = string(name, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of milliseconds, was '" + value + "'", e);
        }
    }
}
