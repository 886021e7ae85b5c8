package io.seckill.buyeraccess.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a token must be to be believed, with keys of both kinds: shared HS256 secrets and a JWKS document of a provider.
 */
class AccessTokensTest {

    private static final String SECRET = "the-current-secret-of-at-least-32-bytes";
    private static final String PREVIOUS = "the-previous-secret-of-at-least-32-bytes";
    private static final String RETIRED = "a-retired-secret-of-at-least-32-bytes-x";
    private static final String ISSUER = "https://id.shop.example";
    private static final String AUDIENCE = "seckill";
    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static RSAKey rsa;
    private static ECKey ec;
    private static RSAKey unpublished;

    @TempDir
    static Path directory;
    private static Path jwksFile;

    @BeforeAll
    static void providerKeys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        unpublished = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        jwksFile = directory.resolve("jwks.json");
        Files.writeString(jwksFile, new JWKSet(List.<JWK>of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());
    }

    private static TokenSettings settings(List<String> secrets) {
        try {
            return new TokenSettings(
                    ISSUER,
                    AUDIENCE,
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    secrets,
                    Optional.of(jwksFile.toUri().toURL()),
                    Duration.ofMinutes(5),
                    "seckill-admin",
                    TokenSettings.DEFAULT_MAX_BYTES);
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    private final AccessTokens tokens = new AccessTokens(settings(List.of(SECRET, PREVIOUS)), CLOCK);

    private static JWTClaimsSet.Builder claims(String subject) {
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(Date.from(NOW))
                .notBeforeTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(600)));
    }

    private static String sign(JWSSigner signer, JWSAlgorithm algorithm, String keyId, JWTClaimsSet claims)
            throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(keyId).build(), claims);
        jwt.sign(signer);
        return jwt.serialize();
    }

    private static String hs256(String secret, JWTClaimsSet claims) throws Exception {
        return sign(
                new MACSigner(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                JWSAlgorithm.HS256,
                SharedKey.of(secret).getKeyID(),
                claims);
    }

    private void invalid(String token) {
        assertThatThrownBy(() -> tokens.verify(token))
                .isInstanceOfSatisfying(
                        AccessTokens.TokenException.class,
                        e -> assertThat(e.expired()).as(e.getMessage()).isFalse());
    }

    private String modified(UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
        return hs256(SECRET, change.apply(claims("alice")).build());
    }

    @Test
    void aMintedTokenNamesItsSubjectAndItsRole() throws Exception {
        TokenMinter minter = new TokenMinter(settings(List.of(SECRET)), CLOCK);

        assertThat(tokens.verify(minter.buyer("alice@shop", Duration.ofMinutes(10))))
                .isEqualTo(new Caller("alice@shop", false));
        assertThat(tokens.verify(minter.admin("ops", Duration.ofMinutes(10)))).isEqualTo(new Caller("ops", true));
    }

    @Test
    void tokensOfTheProvidersKeysAreAcceptedByKid() throws Exception {
        assertThat(tokens.verify(sign(
                        new RSASSASigner(rsa),
                        JWSAlgorithm.RS256,
                        "rsa-1",
                        claims("bob").build())))
                .isEqualTo(new Caller("bob", false));
        assertThat(tokens.verify(sign(
                        new ECDSASigner(ec),
                        JWSAlgorithm.ES256,
                        "ec-1",
                        claims("carol").claim("roles", List.of("seckill-admin")).build())))
                .isEqualTo(new Caller("carol", true));
    }

    @Test
    void expiryAndNotBeforeTolerateTheConfiguredSkewAndNoMore() throws Exception {
        assertThat(tokens.verify(modified(c -> c.expirationTime(Date.from(NOW.minusSeconds(29))))))
                .isEqualTo(new Caller("alice", false));
        String expired = modified(c -> c.expirationTime(Date.from(NOW.minusSeconds(31))));
        assertThatThrownBy(() -> tokens.verify(expired))
                .isInstanceOfSatisfying(AccessTokens.TokenException.class, e -> assertThat(e.expired()).isTrue());
        invalid(modified(c -> c.notBeforeTime(Date.from(NOW.plusSeconds(31)))));
    }

    @Test
    void aTokenVerifiedBeforeIsRefusedOnceItExpiresAsIfNeverSeen() throws Exception {
        Instant[] now = {NOW};
        Clock moving = new Clock() {
            @Override
            public Instant instant() {
                return now[0];
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                throw new UnsupportedOperationException();
            }
        };
        AccessTokens remembering = new AccessTokens(settings(List.of(SECRET)), moving);
        String token = modified(c -> c.expirationTime(Date.from(NOW.plusSeconds(60))));
        assertThat(remembering.verify(token)).isEqualTo(new Caller("alice", false));

        now[0] = NOW.plusSeconds(60 + 29);
        assertThat(remembering.verify(token)).isEqualTo(new Caller("alice", false));
        now[0] = NOW.plusSeconds(60 + 31);
        assertThatThrownBy(() -> remembering.verify(token))
                .isInstanceOfSatisfying(AccessTokens.TokenException.class, e -> assertThat(e.expired()).isTrue());
    }

    @Test
    void theWrongIssuerAudienceOrSubjectIsRefused() throws Exception {
        invalid(modified(c -> c.issuer("https://someone.else")));
        invalid(modified(c -> c.audience("another-service")));
        invalid(modified(c -> c.subject(null)));
        invalid(modified(c -> c.subject("has space")));
        invalid(modified(c -> c.expirationTime(null)));
        invalid(modified(c -> c.claim("roles", "seckill-admin")));
    }

    @Test
    void aLifetimeAboveTheMaximumIsRefused() throws Exception {
        invalid(modified(c -> c.expirationTime(Date.from(NOW.plus(Duration.ofHours(25))))));
    }

    @Test
    void aForgedSignatureAnUnknownKeyOrNoSignatureIsRefused() throws Exception {
        String good = hs256(SECRET, claims("alice").build());
        // The genuine token verified first: its signature beside another payload is still no proof of that payload.
        assertThat(tokens.verify(good)).isEqualTo(new Caller("alice", false));
        String[] parts = good.split("\\.", -1);
        String otherPayload = hs256(SECRET, claims("mallory").build()).split("\\.", -1)[1];
        invalid(parts[0] + "." + otherPayload + "." + parts[2]);
        invalid(parts[0] + "." + otherPayload + "." + parts[2]);
        invalid(sign(new RSASSASigner(unpublished), JWSAlgorithm.RS256, "rsa-1", claims("alice").build()));
        invalid(sign(new RSASSASigner(unpublished), JWSAlgorithm.RS256, "rsa-unknown", claims("alice").build()));
        invalid(new PlainJWT(claims("alice").build()).serialize());
        invalid(sign(
                new MACSigner((SECRET + SECRET).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                JWSAlgorithm.HS384,
                null,
                claims("alice").build()));
        invalid("");
        invalid("not.a.jwt");
    }

    /**
     * The parser would skip what follows the signature's alphabet: a verified token padded so is refused, verified or
     * not before.
     */
    @Test
    void aValidTokenInAnyOtherSpellingOrLongerThanTheBoundIsRefused() throws Exception {
        String good = hs256(SECRET, claims("alice").build());
        assertThat(tokens.verify(good)).isEqualTo(new Caller("alice", false));
        invalid(good + "$".repeat(7_000));
        invalid(good + "~");
        invalid(good + "=");
        String large = hs256(
                SECRET,
                claims("alice")
                        .claim("padding", "x".repeat(TokenSettings.DEFAULT_MAX_BYTES))
                        .build());
        invalid(large);
    }

    @Test
    void duringARotationBothSecretsAreAcceptedAndARetiredOneIsNot() throws Exception {
        assertThat(tokens.verify(hs256(PREVIOUS, claims("dave").build()))).isEqualTo(new Caller("dave", false));
        invalid(hs256(RETIRED, claims("dave").build()));

        AccessTokens afterRotation = new AccessTokens(settings(List.of(SECRET)), CLOCK);
        String byPrevious = hs256(PREVIOUS, claims("dave").build());
        assertThatThrownBy(() -> afterRotation.verify(byPrevious)).isInstanceOf(AccessTokens.TokenException.class);
    }

    @Test
    void withOnlyAProviderNoSharedSecretSignsAnything() throws Exception {
        AccessTokens providerOnly = new AccessTokens(settings(List.of()), CLOCK);
        String shared = hs256(SECRET, claims("alice").build());

        assertThatThrownBy(() -> providerOnly.verify(shared)).isInstanceOf(AccessTokens.TokenException.class);
        assertThat(providerOnly.verify(sign(
                        new RSASSASigner(rsa),
                        JWSAlgorithm.RS256,
                        "rsa-1",
                        claims("bob").build())))
                .isEqualTo(new Caller("bob", false));
    }

    @Test
    void aKeyTheProviderPublishesLaterIsFetchedWhenATokenNamesIt() throws Exception {
        Path rotatingFile = directory.resolve("rotating-jwks.json");
        Files.writeString(rotatingFile, new JWKSet(rsa.toPublicJWK()).toString());
        AccessTokens rotating = new AccessTokens(
                new TokenSettings(
                        ISSUER,
                        AUDIENCE,
                        Duration.ofSeconds(30),
                        Duration.ofHours(24),
                        List.of(),
                        Optional.of(rotatingFile.toUri().toURL()),
                        Duration.ofMinutes(5),
                        "seckill-admin",
                        TokenSettings.DEFAULT_MAX_BYTES),
                CLOCK);
        assertThat(rotating.verify(sign(
                        new RSASSASigner(rsa),
                        JWSAlgorithm.RS256,
                        "rsa-1",
                        claims("bob").build())))
                .isEqualTo(new Caller("bob", false));

        Files.writeString(rotatingFile, new JWKSet(List.<JWK>of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());

        assertThat(rotating.verify(sign(
                        new ECDSASigner(ec),
                        JWSAlgorithm.ES256,
                        "ec-1",
                        claims("carol").build())))
                .isEqualTo(new Caller("carol", false));
    }
}
