package io.seckill.ingress.http;

/**
 * A value a client wrote (a path, a name, a body), made safe for a text log line: control characters (a line break
 * above all, which would let it write a line of its own that reads as ours) and the backslash escaped, everything
 * else as it was.
 */
public final class LogText {

    private LogText() {
    }

    /** @return {@code value} escaped, or null for null */
    public static String escape(String value) {
        if (value == null
                || value.chars().noneMatch(c -> c < 0x20 || c == 0x7F || c == '\\' || c == 0x2028 || c == 0x2029)) {
            return value;
        }
        StringBuilder escaped = new StringBuilder(value.length() + 16);
        value.chars().forEach(c -> {
            switch (c) {
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                case '\\' -> escaped.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7F || c == 0x2028 || c == 0x2029) {
                        escaped.append(String.format("\\u%04x", c));
                    } else {
                        escaped.append((char) c);
                    }
                }
            }
        });
        return escaped.toString();
    }
}
