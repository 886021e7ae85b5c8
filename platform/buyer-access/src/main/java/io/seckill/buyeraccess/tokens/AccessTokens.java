package io.seckill.buyeraccess.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import io.seckill.schemas.events.UserIdFormat;
import java.net.URL;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies buyer and admin tokens (JWTs) with nimbus-jose-jwt: a signature by a configured key (HS256 by a
 * shared secret, RS256/ES256 by a JWKS key chosen by {@code kid}; unsigned tokens never), the issuer and
 * audience, {@code exp} and {@code nbf} within the clock skew, a lifetime no longer than the maximum, and a
 * subject that is a valid user id. The admin role is a value of the {@value #ROLES_CLAIM} claim. A token not in its
 * canonical compact form ({@link CompactToken}) is refused before anything else is done with it.
 */
public final class AccessTokens {

    public static final String ROLES_CLAIM = "roles";
    private static final Set<JWSAlgorithm> PROVIDER_ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
    /** Some hundred thousand buyers' tokens at once, whatever the tokens' length. */
    static final long RECENT_TOKEN_BYTES = 32L * 1024 * 1024;

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Clock clock;
    private final Duration latestExpiry;
    private final String adminRole;
    private final Duration clockSkew;
    private final RecentTokens recent;
    private final int maxTokenBytes;

    public AccessTokens(TokenSettings settings, Clock clock) {
        this.clock = clock;
        this.clockSkew = settings.clockSkew();
        this.recent = new RecentTokens(RECENT_TOKEN_BYTES, settings.jwksRefresh());
        this.maxTokenBytes = settings.maxTokenBytes();
        this.latestExpiry = settings.maxLifetime().plus(settings.clockSkew());
        this.adminRole = settings.adminRole();
        processor.setJWSKeySelector(keySelector(settings));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(settings.audience()),
                new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
                Set.of(JWTClaimNames.SUBJECT, JWTClaimNames.EXPIRATION_TIME), null) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        claims.setMaxClockSkew((int) settings.clockSkew().toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
    }

    /**
     * HS256 tokens are checked against the shared secrets only and provider tokens against the JWKS only, so
     * that no key of one kind is ever tried for the other's algorithm.
     */
    private static JWSKeySelector<SecurityContext> keySelector(TokenSettings settings) {
        JWSKeySelector<SecurityContext> shared = new JWSVerificationKeySelector<>(
                JWSAlgorithm.HS256,
                new ImmutableJWKSet<>(new JWKSet(settings.hmacSecrets().stream()
                        .map(SharedKey::of)
                        .<JWK>map(key -> key)
                        .toList())));
        Optional<JWSKeySelector<SecurityContext>> provider = settings.jwks()
                .map(url -> new JWSVerificationKeySelector<>(
                        PROVIDER_ALGORITHMS, providerKeys(url, settings.jwksRefresh())));
        return (header, context) -> {
            if (JWSAlgorithm.HS256.equals(header.getAlgorithm())) {
                return shared.selectJWSKeys(header, context);
            }
            return provider.isPresent() ? provider.get().selectJWSKeys(header, context) : List.of();
        };
    }

    /** Cached for {@code refresh}, and fetched again (rate-limited) when a token names a {@code kid} not yet seen. */
    private static JWKSource<SecurityContext> providerKeys(URL url, Duration refresh) {
        return JWKSourceBuilder.<SecurityContext>create(url)
                .cache(refresh.toMillis(), JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT)
                .build();
    }

    /**
     * @return whom {@code token} names if it passed every check lately and is still unexpired, else null ({@link
     *         #verify} tells why): a map lookup, no signature read
     */
    public Caller verifiedLately(String token) {
        // Only canonical tokens are remembered: any other spelling is passed over by a scan, never hashed.
        return CompactToken.canonical(token, maxTokenBytes) ? recent.caller(token, clock.instant()) : null;
    }

    /** @return whom the token names */
    public Caller verify(String token) throws TokenException {
        if (!CompactToken.canonical(token, maxTokenBytes)) {
            throw new TokenException(
                    false, "not a compact JWS of at most " + maxTokenBytes + " bytes in canonical base64url");
        }
        Instant now = clock.instant();
        Caller known = recent.caller(token, now);
        if (known != null) {
            return known;
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(token, null);
        } catch (ExpiredJWTException e) {
            throw new TokenException(true, e.getMessage());
        } catch (ParseException | BadJOSEException | JOSEException e) {
            throw new TokenException(false, e.getMessage());
        }
        if (claims.getExpirationTime().toInstant().isAfter(now.plus(latestExpiry))) {
            throw new TokenException(false, "lives longer than the maximum token lifetime");
        }
        String subject = claims.getSubject();
        if (!UserIdFormat.isValid(subject)) {
            throw new TokenException(false, "the subject is not a user id");
        }
        Caller caller = new Caller(subject, roles(claims).contains(adminRole));
        recent.remember(token, caller, now, claims.getExpirationTime().toInstant().plus(clockSkew));
        return caller;
    }

    private static List<String> roles(JWTClaimsSet claims) throws TokenException {
        try {
            List<String> roles = claims.getStringListClaim(ROLES_CLAIM);
            return roles == null ? List.of() : roles;
        } catch (ParseException e) {
            throw new TokenException(false, ROLES_CLAIM + " is not a list of strings");
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
