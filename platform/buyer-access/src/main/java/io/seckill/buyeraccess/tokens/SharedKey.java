package io.seckill.buyeraccess.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import java.nio.charset.StandardCharsets;

/** A shared HS256 secret as a JWK, its {@code kid} the key's thumbprint: the minter and the verifier name it alike. */
final class SharedKey {

    private SharedKey() {
    }

    static OctetSequenceKey of(String secret) {
        try {
            return new OctetSequenceKey.Builder(secret.getBytes(StandardCharsets.UTF_8))
                    .keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.HS256).keyIDFromThumbprint().build();
        } catch (JOSEException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
