package io.seckill.schemas.pass;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hashcash-style puzzle a sale-pass challenge poses: find a solution such that SHA-256 of
 * {@code challenge + ":" + solution} (UTF-8) begins with {@code difficulty} zero bits. Finding one takes about
 * 2^difficulty hashes; checking one takes one.
 */
public final class ProofOfWork {

    /** Beyond this a browser would take hours; below it, any figure is a setting. */
    public static final int MAX_DIFFICULTY = 32;
    /** Solutions are short: a counter's decimal digits, or whatever a client's solver counts with. */
    public static final int MAX_SOLUTION_LENGTH = 64;

    private ProofOfWork() {
    }

    /** Whether {@code solution} solves {@code challenge} at {@code difficulty}. */
    public static boolean solves(String challenge, String solution, int difficulty) {
        if (solution == null || solution.isEmpty() || solution.length() > MAX_SOLUTION_LENGTH) {
            return false;
        }
        return leadingZeroBits(sha256().digest((challenge + ":" + solution).getBytes(StandardCharsets.UTF_8)))
                >= difficulty;
    }

    /** The first solution found by counting from 0: what the command line, the benchmarks and the tests use. */
    public static String solve(String challenge, int difficulty) {
        MessageDigest sha256 = sha256();
        byte[] prefix = (challenge + ":").getBytes(StandardCharsets.UTF_8);
        for (long counter = 0; ; counter++) {
            sha256.update(prefix);
            String solution = Long.toString(counter);
            if (leadingZeroBits(sha256.digest(solution.getBytes(StandardCharsets.UTF_8))) >= difficulty) {
                return solution;
            }
        }
    }

    public static int leadingZeroBits(byte[] hash) {
        int bits = 0;
        for (byte b : hash) {
            if (b != 0) {
                return bits + Integer.numberOfLeadingZeros(b & 0xff) - 24;
            }
            bits += 8;
        }
        return bits;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
