package io.seckill.config;

import java.util.Locale;

/**
 * How a process writes its log lines ({@value #SETTING}): logback's configuration includes {@code seckill-log-NAME.xml}
 * by this name, so a value that names no such file would leave the process without a log; it is refused instead.
 */
public enum LogFormat {
    /** One line each, the logging context at its end: the development default. */
    TEXT,
    /** One JSON object per line, the logging context as fields: for a log shipper. */
    JSON;

    public static final String SETTING = "SECKILL_LOG_FORMAT";

    /**
     * The format {@code env} asks for; refuses any other value than {@code text} and {@code json}, naming the setting.
     */
    public static LogFormat of(Env env) {
        String value = env.string(SETTING, "text");
        for (LogFormat format : values()) {
            if (format.name().toLowerCase(Locale.ROOT).equals(value)) {
                return format;
            }
        }
        throw new IllegalArgumentException(SETTING + "=" + value + " is neither text nor json");
    }
}
