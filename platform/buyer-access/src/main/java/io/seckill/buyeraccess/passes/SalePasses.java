package io.seckill.buyeraccess.passes;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;

/**
 * Sale passes: {@code p1.SKU.EXPIRES_MS.SIGNATURE}, signed over the buyer, the SKU and the expiry, so a pass is good
 * for one buyer, one sale, until it expires, and is checked with one HMAC (nothing stored, any ingress with the key
 * checks it). The buyer is not in the pass: a pass shown by anyone else fails its signature.
 */
public final class SalePasses {

    /** The request header a buy shows its pass in. */
    public static final String HEADER = "Seckill-Pass";
    private static final String VERSION = "p1";

    private final PassKey key;

    public SalePasses(PassKey key) {
        this.key = key;
    }

    /** A pass for {@code buyer} to buy SKU {@code skuId} until {@code expiresAt}. */
    public String issue(String buyer, long skuId, Instant expiresAt) {
        String body = VERSION + "." + skuId + "." + expiresAt.toEpochMilli();
        return body + "." + key.sign(signed(buyer, skuId, expiresAt.toEpochMilli()));
    }

    /**
     * Whether the request showed a pass, and if it did, that the pass is this buyer's for this sale and unexpired.
     * @param shown the header's value, null when absent
     * @return false when no pass was shown (the sale decides whether it needs one), true for a good one
     * @throws Problem PASS_INVALID, saying why, for any other pass
     */
    public boolean shown(String shown, String buyer, long skuId, Instant now) {
        if (shown == null) {
            return false;
        }
        String[] parts = shown.split("\\.", -1);
        if (parts.length != 4 || !VERSION.equals(parts[0])) {
            throw invalid("the " + HEADER + " header is not a sale pass");
        }
        long passSku;
        long expiresMs;
        try {
            passSku = Long.parseLong(parts[1]);
            expiresMs = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            throw invalid("the " + HEADER + " header is not a sale pass");
        }
        if (passSku != skuId) {
            throw invalid("the pass is for SKU " + passSku + ", not " + skuId);
        }
        if (!key.verifies(signed(buyer, skuId, expiresMs), parts[3])) {
            throw invalid("the pass was not issued to this buyer, or was altered");
        }
        if (now.toEpochMilli() >= expiresMs) {
            throw invalid("the pass expired at " + Instant.ofEpochMilli(expiresMs) + "; get a new one")
                    .with("expiredAt", Instant.ofEpochMilli(expiresMs).toString());
        }
        return true;
    }

    private static String signed(String buyer, long skuId, long expiresMs) {
        return "pass|" + buyer.length() + ":" + buyer + "|" + skuId + "|" + expiresMs;
    }

    private static Problem invalid(String why) {
        return new Problem(ErrorCode.PASS_INVALID, why);
    }
}
