package io.seckill.ingress.orders;

import org.slf4j.LoggerFactory;

/**
 * The port to a payment provider: asked whether a payment the buyer names by its reference covers the
 * order, before MySQL marks the order paid (no row lock is held while the provider answers). A real
 * provider implements this (authorise in {@link #refusal}, capture once the order is PAID, void an
 * authorisation whose order ended otherwise) and is chosen by its name in
 * {@code SECKILL_PAYMENT_VERIFIER} ({@link #named}).
 */
public interface PaymentVerifier {

    /** No provider: every payment is declined, so confirmed orders expire unpaid and their units go back. */
    String NONE = "none";
    /** The development stand-in: every reference is a payment. */
    String DEVELOPMENT = "development";

    /**
     * @return null when the payment covers the order, else why it does not (the buyer is told, the order is unchanged)
     */
    String refusal(String orderId, String userId, long skuId, int quantity, String paymentReference);

    /** The payment provider's port by its name; only the two stand-ins are built in, and each says so at start. */
    static PaymentVerifier named(String name) {
        return switch (name) {
            case NONE -> {
                LoggerFactory.getLogger(PaymentVerifier.class)
                        .warn("SECKILL_PAYMENT_VERIFIER=none: no payment provider, every payment is declined");
                yield (orderId, userId, skuId, quantity, paymentReference) -> "no payment provider is configured";
            }
            case DEVELOPMENT -> {
                // Said, not warned: only development mode takes it (production refuses it before anything starts).
                LoggerFactory.getLogger(PaymentVerifier.class)
                        .info("SECKILL_PAYMENT_VERIFIER=development: every payment reference is taken as paid;"
                                + " nothing is charged");
                yield (orderId, userId, skuId, quantity, paymentReference) -> null;
            }
            default ->
                throw new IllegalArgumentException(
                        "SECKILL_PAYMENT_VERIFIER " + name + " is unknown: the built-in ones are none and"
                                + " development; a payment provider implements PaymentVerifier");
        };
    }
}
