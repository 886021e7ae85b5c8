package io.seckill.buyeraccess.passes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC-SHA256 key that signs challenges, passes and queue tickets, so that any ingress sharing it checks them
 * without storing
 * them. Its own secret, or one derived from the token secret under a label of its own (a pass key never verifies a
 * token, nor a token key a pass).
 */
public final class PassKey {

    private static final String ALGORITHM = "HmacSHA256";
    private static final String DERIVATION_LABEL = "seckill sale pass key v1";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecretKeySpec key;

    private PassKey(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /** A key of its own, as configured. */
    public static PassKey of(String secret) {
        return new PassKey(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** A key derived from the token secret: HMAC-SHA256(token secret, a fixed label). */
    public static PassKey derivedFrom(String tokenSecret) {
        return new PassKey(new PassKey(tokenSecret.getBytes(StandardCharsets.UTF_8)).mac(DERIVATION_LABEL));
    }

    /** The signature of {@code message}, base64url. */
    String sign(String message) {
        return ENCODER.encodeToString(mac(message));
    }

    /** Whether {@code signature} is {@code message}'s, compared in constant time. */
    boolean verifies(String message, String signature) {
        return MessageDigest.isEqual(
                sign(message).getBytes(StandardCharsets.US_ASCII), signature.getBytes(StandardCharsets.US_ASCII));
    }

    /** The first 64 bits of {@code message}'s signature: a number no one without the key can foresee. */
    long number(String message) {
        return ByteBuffer.wrap(mac(message)).getLong();
    }

    private byte[] mac(String message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** The key never shows. */
    @Override
    public String toString() {
        return "PassKey[(hidden)]";
    }
}
