package io.seckill.ingress.endings;

import org.slf4j.LoggerFactory;

/**
 * The port to a payment provider: asked whether a payment the buyer names by its reference covers the
 * order, before MySQL marks the order paid (no row lock is held while the provider answers). A real
 * provider implements this (authorise in {@link #refusal}, capture once the order is PAID, void an
 * authorisation whose order ended otherwise) and is chosen by its name in
 * {@code SECKILL_PAYMENT_VERIFIER} ({@link #named}).
 */
public interface PaymentVerifier {

    /** @return null when the payment covers the order, else why it does not (the buyer is told, the order is unchanged) */
    String refusal(String orderId, String userId, long skuId, int quantity, String paymentReference);

    /**
     * Development only: every reference is taken as a payment, with a warning at start. Nothing is
     * charged; it stands in for no provider.
     */
    static PaymentVerifier acceptingEveryReference() {
        return (orderId, userId, skuId, quantity, paymentReference) -> null;
    }

    /** The payment provider's port by its name; only the development stand-in exists, and it says so. */
    static PaymentVerifier named(String name) {
        if (!"development".equals(name)) {
            throw new IllegalArgumentException("SECKILL_PAYMENT_VERIFIER " + name + " is unknown: the only one built in is development;"
                    + " a payment provider implements PaymentVerifier");
        }
        LoggerFactory.getLogger(PaymentVerifier.class)
                .warn("SECKILL_PAYMENT_VERIFIER=development: every payment reference is taken as paid; nothing is charged");
        return acceptingEveryReference();
    }
}
