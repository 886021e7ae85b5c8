package io.seckill.ingress.identity;

import io.seckill.buyeraccess.tokens.TokenSettings;
import org.slf4j.LoggerFactory;

/**
 * How the ingress knows who calls: buyers by the mode, admins by a token with the admin role.
 *
 * @param mode   "token" (Authorization: Bearer, the default) or {@code trusted-header} (X-User-Id set by an
 *               authenticating gateway); admins present a token with the admin role in either mode
 * @param tokens      how buyers' tokens are verified
 * @param adminTokens how admins' tokens are verified: keys of their own
 */
public record Auth(String mode, TokenSettings tokens, TokenSettings adminTokens, String gatewaySecret) {
    public boolean trustedHeader() {
        return "trusted-header".equals(mode);
    }

    /** Who a request's buyer is, by the mode; its secrets were checked when the configuration was read. */
    public BuyerIdentity identity(BearerTokens verifier) {
        if (trustedHeader()) {
            LoggerFactory.getLogger(Auth.class)
                    .warn("auth mode trusted-header: X-User-Id is believed from requests that carry "
                            + "the gateway's credential; only run this behind a gateway that sets both");
            return new TrustedHeaderIdentity(gatewaySecret);
        }
        return new BearerTokenIdentity(verifier);
    }

    /** Without the secrets: a configuration is logged and shown in failures, a secret never is. */
    @Override
    public String toString() {
        return "Auth[mode=" + mode + ", tokens=" + tokens + ", adminTokens=" + adminTokens + ", gatewaySecret="
                + (gatewaySecret == null ? "unset" : "(hidden)") + "]";
    }
}
