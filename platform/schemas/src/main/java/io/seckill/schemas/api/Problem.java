package io.seckill.schemas.api;

import java.util.LinkedHashMap;
import java.util.Map;

/** A failure the client is told about as RFC 9457 problem+json: a stable {@link ErrorCode}, a detail, extensions. */
public final class Problem extends RuntimeException {

    /** The extension that also becomes the Retry-After header. */
    public static final String RETRY_AFTER_SECONDS = "retryAfterSeconds";
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    // Never serialized: a problem is answered over HTTP where it is thrown.
    private final transient Map<String, Object> extensions = new LinkedHashMap<>();

    public Problem(ErrorCode code, String detail) {
        super(detail, null, false, false);
        this.code = code;
    }

    /** Adds an extension member (RFC 9457 section 3.2), e.g. {@code startsAt} or {@code retryAfterSeconds}. */
    public Problem with(String member, Object value) {
        extensions.put(member, value);
        return this;
    }

    public ErrorCode code() {
        return code;
    }

    public Map<String, Object> extensions() {
        return extensions;
    }
}
