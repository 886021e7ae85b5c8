package io.seckill.buyeraccess.tokens;

/**
 * Whether a bearer credential is a JWS in its one canonical compact form: three non-empty parts of unpadded base64url
 * joined by two dots, each part's last character carrying no stray bits, no longer than a bound. Checked before any
 * other work: the JWT parser skips characters outside the alphabet, so without this one valid token could be shown in
 * endless spellings, each verified and remembered apart.
 */
final class CompactToken {

    private static final int PARTS = 3;

    private CompactToken() {
    }

    /** @param maxBytes the longest token taken (a canonical token is ASCII: one byte per character) */
    static boolean canonical(String token, int maxBytes) {
        int length = token.length();
        if (length > maxBytes) {
            return false;
        }
        int parts = 0;
        int partStart = 0;
        for (int i = 0; i <= length; i++) {
            if (i == length || token.charAt(i) == '.') {
                if (!canonicalPart(token, partStart, i)) {
                    return false;
                }
                parts++;
                partStart = i + 1;
            } else if (value(token.charAt(i)) < 0) {
                return false;
            }
        }
        return parts == PARTS;
    }

    /**
     * A part of {@code end - start} characters: never 1 more than a multiple of 4 (no byte ends there), and its last
     * character's bits past the data zero (else another spelling of the same bytes).
     */
    private static boolean canonicalPart(String token, int start, int end) {
        int length = end - start;
        if (length == 0) {
            return false;
        }
        int last = value(token.charAt(end - 1));
        return switch (length % 4) {
            case 0 -> true;
            case 2 -> (last & 0x0F) == 0;
            case 3 -> (last & 0x03) == 0;
            default -> false;
        };
    }

    /** The 6-bit value of a base64url character, or -1 for any other. */
    private static int value(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '-') {
            return 62;
        }
        return c == '_' ? 63 : -1;
    }
}
