package io.seckill.ingress.identity;

import io.seckill.schemas.events.UserIdFormat;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A buyer's bearer token: {@code v1.<base64url(userId)>.<expiry epoch seconds>.<base64url(HMAC-SHA256)>},
 * the MAC taken over everything before the last dot with a secret shared by the minter and every ingress.
 * Verification compares MACs in constant time and tolerates a configured clock skew on the expiry.
 */
public final class BuyerToken {

    /** Secrets shorter than this are refused: HMAC-SHA256 wants at least 256 bits of key. */
    public static final int MIN_SECRET_BYTES = 32;
    private static final String VERSION = "v1";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64_DECODE = Base64.getUrlDecoder();
    /** Epoch seconds as minted: ASCII digits only (Long.parseLong would take a sign and any script's digits). */
    private static final Pattern EXPIRY = Pattern.compile("[0-9]{1,12}");

    private final SecretKeySpec key;
    /** Mac.getInstance looks up providers under locks; each thread keeps its own initialised Mac. */
    private final ThreadLocal<Mac> macs;
    private final Clock clock;
    private final Duration skew;

    public BuyerToken(String secret, Clock clock, Duration skew) {
        byte[] bytes = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the token secret must be at least " + MIN_SECRET_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
        this.macs = ThreadLocal.withInitial(this::newMac);
        this.clock = clock;
        this.skew = skew;
    }

    public String mint(String userId, Instant expiresAt) {
        if (!UserIdFormat.isValid(userId)) {
            throw new IllegalArgumentException("user id must be " + UserIdFormat.DESCRIPTION);
        }
        String signed = VERSION + "." + B64.encodeToString(userId.getBytes(StandardCharsets.UTF_8)) + "." + expiresAt.getEpochSecond();
        return signed + "." + B64.encodeToString(mac(signed));
    }

    /** @return the user id the token was minted for */
    public String verify(String token) throws TokenException {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 4 || !VERSION.equals(parts[0])) {
            throw new TokenException(false, "not a v1 token");
        }
        if (!EXPIRY.matcher(parts[2]).matches()) {
            throw new TokenException(false, "malformed expiry");
        }
        byte[] presented;
        String userId;
        long expiry;
        try {
            presented = B64_DECODE.decode(parts[3]);
            userId = new String(B64_DECODE.decode(parts[1]), StandardCharsets.UTF_8);
            expiry = Long.parseLong(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new TokenException(false, "malformed token");
        }
        byte[] expected = mac(parts[0] + "." + parts[1] + "." + parts[2]);
        if (!MessageDigest.isEqual(expected, presented)) {
            throw new TokenException(false, "bad signature");
        }
        if (!UserIdFormat.isValid(userId)) {
            throw new TokenException(false, "bad user id");
        }
        if (clock.instant().minus(skew).isAfter(Instant.ofEpochSecond(expiry))) {
            throw new TokenException(true, "expired at " + Instant.ofEpochSecond(expiry));
        }
        return userId;
    }

    private byte[] mac(String signed) {
        return macs.get().doFinal(signed.getBytes(StandardCharsets.US_ASCII));
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** A token that is expired ({@link #expired()}) or cannot be trusted at all. */
    public static final class TokenException extends Exception {

        private static final long serialVersionUID = 1L;
        private final boolean expired;

        TokenException(boolean expired, String message) {
            super(message, null, false, false);
            this.expired = expired;
        }

        public boolean expired() {
            return expired;
        }
    }
}
