package io.seckill.ingress.warmup;

import io.seckill.buyeraccess.passes.PassKey;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.buyeraccess.tokens.AccessTokens;
import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.identity.Auth;
import io.seckill.ingress.identity.BearerTokenIdentity;
import io.seckill.ingress.identity.BearerTokens;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.identity.TokenRefusals;
import io.seckill.ingress.identity.TrustedHeaderIdentity;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The warm-up's own credentials, of the kind the ingress is configured for (a bearer token, or the gateway's
 * credential with {@code X-User-Id}), and its own sale passes: made of secrets drawn for this warm-up alone and
 * held in memory only, so the warm-up runs the same checks as a buyer's request and its loopback server takes no
 * credential of the real ones.
 */
final class WarmUpCredentials {

    /** Longer than any warm-up is let run. */
    private static final Duration LIFETIME = Duration.ofMinutes(10);

    private final boolean trustedHeader;
    private final String gatewaySecret;
    private final TokenSettings tokens;
    private final TokenMinter minter;
    private final SalePasses passes;
    private final Clock clock;

    WarmUpCredentials(Auth auth, Clock clock) {
        this.trustedHeader = auth.trustedHeader();
        this.gatewaySecret = secret();
        this.tokens = new TokenSettings(
                auth.tokens().issuer(),
                auth.tokens().audience(),
                auth.tokens().clockSkew(),
                LIFETIME.plusMinutes(1),
                List.of(secret()),
                Optional.empty(),
                auth.tokens().jwksRefresh(),
                auth.tokens().adminRole(),
                auth.tokens().maxTokenBytes());
        this.minter = new TokenMinter(tokens, clock);
        this.passes = new SalePasses(PassKey.of(secret()));
        this.clock = clock;
    }

    BuyerIdentity identity() {
        // Its tokens are its own and all valid: none is ever refused to count.
        return trustedHeader
                ? new TrustedHeaderIdentity(gatewaySecret)
                : new BearerTokenIdentity(new BearerTokens(
                        new AccessTokens(tokens, clock),
                        new TokenRefusals(0, Duration.ofSeconds(1), System::nanoTime),
                        TrustedProxies.parse("")));
    }

    SalePasses passes() {
        return passes;
    }

    /** The headers that name {@code userId} as the buyer. */
    Map<String, String> buyer(String userId) {
        return trustedHeader
                ? Map.of(TrustedHeaderIdentity.GATEWAY_HEADER, gatewaySecret, TrustedHeaderIdentity.HEADER, userId)
                : Map.of("Authorization", "Bearer " + minter.buyer(userId, LIFETIME));
    }

    /** {@code userId}'s pass to the sale of {@code skuId}. */
    String pass(String userId, long skuId) {
        return passes.issue(userId, skuId, Instant.now(clock).plus(LIFETIME));
    }

    private static String secret() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
