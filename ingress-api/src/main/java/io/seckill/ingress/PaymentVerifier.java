package io.seckill.ingress;

/**
 * The port to a payment provider: asked whether a payment the buyer names by its reference covers the
 * order, before MySQL marks the order paid (no row lock is held while the provider answers). A real
 * provider implements this (authorise in {@link #verify}, capture once the order is PAID, void an
 * authorisation whose order ended otherwise) and is chosen in {@link IngressApi} by
 * {@code SECKILL_PAYMENT_VERIFIER}.
 */
interface PaymentVerifier {

    /** @return null when the payment covers the order, else why it does not (the buyer is told, the order is unchanged) */
    String refusal(String orderId, String userId, long skuId, int quantity, String paymentReference);

    /**
     * Development only: every reference is taken as a payment, with a warning at start. Nothing is
     * charged; it stands in for no provider.
     */
    static PaymentVerifier acceptingEveryReference() {
        return (orderId, userId, skuId, quantity, paymentReference) -> null;
    }
}
