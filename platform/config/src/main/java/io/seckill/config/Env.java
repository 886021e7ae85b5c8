package io.seckill.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** Typed reads of environment variables with documented defaults; a malformed value fails fast by name. */
public final class Env {

    private final Map<String, String> variables;
    /** Told each default this environment gives for a variable it does not set. */
    private final BiConsumer<String, String> defaultsGiven;

    public Env(Map<String, String> variables) {
        this(variables, Env::unobserved);
    }

    private static void unobserved(String name, String defaultValue) {
        // Nobody asked which defaults were given.
    }

    private Env(Map<String, String> variables, BiConsumer<String, String> defaultsGiven) {
        this.variables = Map.copyOf(variables);
        this.defaultsGiven = defaultsGiven;
    }

    /**
     * This environment, telling {@code defaultsGiven} each default it (and every environment made from it) gives, by
     * name and as the variable would be written: what a documented default is held to.
     */
    public Env observed(BiConsumer<String, String> defaultsGiven) {
        return new Env(variables, defaultsGiven);
    }

    public static Env system() {
        return new Env(System.getenv());
    }

    /** This environment with {@code value} for {@code name} unless it already sets one. */
    public Env withDefault(String name, String value) {
        if (set(name) != null) {
            return this;
        }
        Map<String, String> merged = new HashMap<>(variables);
        merged.put(name, value);
        return new Env(merged, defaultsGiven);
    }

    public String string(String name, String defaultValue) {
        String value = set(name);
        if (value == null && defaultValue != null) {
            defaultsGiven.accept(name, defaultValue);
        }
        return value == null ? defaultValue : value;
    }

    private String set(String name) {
        String value = variables.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    public int integer(String name, int defaultValue) {
        String value = set(name);
        if (value == null) {
            defaultsGiven.accept(name, Integer.toString(defaultValue));
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
        String value = set(name);
        if (value == null) {
            if (defaultValue != null) {
                defaultsGiven.accept(name, Long.toString(defaultValue.toMillis()));
            }
            return defaultValue;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of milliseconds, was '" + value + "'", e);
        }
    }
}
