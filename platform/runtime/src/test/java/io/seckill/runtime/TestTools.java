package io.seckill.runtime;

import org.junit.jupiter.api.Assumptions;

/**
 * A test's tool besides the JVM (Node.js, promtool, Chromium): where it is missing the test skips and says why, unless
 * the run asked for every tool ({@value #VARIABLE}={@value #REQUIRED}, as {@code bin/seckill test} does once it has
 * installed them): then a missing tool fails the test, so that a run cannot pass on tests it never ran.
 */
public final class TestTools {

    public static final String VARIABLE = "SECKILL_TEST_TOOLS";
    public static final String REQUIRED = "required";

    private TestTools() {
    }

    /** @param missing what is missing and what the test therefore does not run */
    public static void assumePresent(boolean present, String missing) {
        if (!present && REQUIRED.equals(System.getenv(VARIABLE))) {
            throw new AssertionError(missing + " (" + VARIABLE + "=" + REQUIRED + ": every test's tool must be there)");
        }
        Assumptions.assumeTrue(present, missing);
    }
}
