package io.seckill.buyeraccess.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.seckill.schemas.events.UserIdFormat;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Signs tokens with the current shared HS256 secret of their kind's settings, as the ingress verifies them: for
 * development, tests and load tests ({@code bin/seckill mint-token}). A shop's identity provider mints real buyers'
 * tokens; an admin's token is only good when minted with the admins' settings.
 */
public final class TokenMinter {

    private final OctetSequenceKey key;
    private final MACSigner signer;
    private final TokenSettings settings;
    private final Clock clock;

    public TokenMinter(TokenSettings settings, Clock clock) {
        if (settings.hmacSecrets().isEmpty()) {
            throw new IllegalArgumentException("minting needs a shared secret (" + TokenSettings.SECRET + ", or "
                    + TokenSettings.ADMIN_SECRET + " for admins)");
        }
        this.key = SharedKey.of(settings.hmacSecrets().get(0));
        this.settings = settings;
        this.clock = clock;
        try {
            this.signer = new MACSigner(key);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the shared secret is too short for HS256", e);
        }
    }

    /** The development run's minter of buyers' tokens. */
    public static TokenMinter development(String secret) {
        return new TokenMinter(TokenSettings.development(secret), Clock.systemUTC());
    }

    /** The development run's minter of admins' tokens, by the admins' own secret. */
    public static TokenMinter developmentAdmin(String adminSecret) {
        return new TokenMinter(TokenSettings.developmentAdmin(adminSecret), Clock.systemUTC());
    }

    public String buyer(String userId, Duration lifetime) {
        return mint(userId, lifetime, List.of());
    }

    public String admin(String userId, Duration lifetime) {
        return mint(userId, lifetime, List.of(settings.adminRole()));
    }

    /** @throws IllegalArgumentException for a lifetime above the maximum the ingress accepts, or a bad user id */
    public String mint(String userId, Duration lifetime, List<String> roles) {
        if (!UserIdFormat.isValid(userId)) {
            throw new IllegalArgumentException("user id must be " + UserIdFormat.DESCRIPTION);
        }
        if (lifetime.compareTo(settings.maxLifetime()) > 0) {
            throw new IllegalArgumentException(
                    "a token lives at most " + settings.maxLifetime() + " (" + TokenSettings.MAX_LIFETIME + ", "
                            + TokenSettings.ADMIN_MAX_LIFETIME + " for admins), asked " + lifetime);
        }
        Instant now = clock.instant();
        // No nbf: a token valid from its minting needs none, and an ingress whose clock lags the minter's would refuse
        // it.
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(settings.issuer())
                .audience(settings.audience())
                .subject(userId)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifetime)));
        if (!roles.isEmpty()) {
            claims.claim(AccessTokens.ROLES_CLAIM, roles);
        }
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256)
                        .type(JOSEObjectType.JWT)
                        .keyID(key.getKeyID())
                        .build(),
                claims.build());
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("HS256 signing failed", e);
        }
        return jwt.serialize();
    }
}
