package io.seckill.config;

/**
 * Whether a production service may reach its servers in the clear ({@value #SETTING}): by default it may not (Kafka
 * over {@code SASL_PLAINTEXT}, a JDBC URL that does not verify the server's certificate, a Redis URL without TLS are
 * refused), since anyone on the path reads every order and can answer in the server's name. A deployment whose path
 * is one host or a network it trusts as much (Docker Compose on one machine) names that risk by setting it.
 */
public final class PlaintextNetwork {

    public static final String SETTING = "SECKILL_ALLOW_PLAINTEXT_NETWORK";

    private PlaintextNetwork() {
    }

    /** @return whether {@code env} allows a production service to talk to its servers without verified TLS */
    public static boolean allowed(Env env) {
        String value = env.string(SETTING, "false");
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(SETTING + " must be true or false, was '" + value + "'");
        };
    }

    /** The clause a refusal ends with: how to do it right, and how to name the risk instead. */
    static String remedy() {
        return "; or, on one host or a network you trust as much, set " + SETTING + "=true";
    }
}
