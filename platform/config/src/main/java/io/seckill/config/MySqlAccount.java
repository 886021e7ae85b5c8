package io.seckill.config;

import java.util.Optional;

/**
 * The MySQL accounts the services connect as, one per door, each granted by {@code bin/seckill migrate} only the
 * statements its code runs, table by table: a stolen password opens only its own. The ingress holds two: the buyers'
 * (which cannot write stock) and its admin listener's (which defines sales and adjusts stock).
 */
public enum MySqlAccount {
    INGRESS("seckill_ingress"),
    INGRESS_ADMIN("seckill_admin"),
    DB_SINK("seckill_sink"),
    RECONCILER("seckill_reconciler");

    private final String user;

    MySqlAccount(String user) {
        this.user = user;
    }

    /** The account's name, which the grants name ({@code 'user'@'%'}). */
    public String user() {
        return user;
    }

    /** The account a service connects as by default, for the service whose Kafka principal is {@code principal}. */
    public static Optional<MySqlAccount> of(KafkaPrincipal principal) {
        return switch (principal) {
            case INGRESS -> Optional.of(INGRESS);
            case DB_SINK -> Optional.of(DB_SINK);
            case RECONCILER -> Optional.of(RECONCILER);
            case STREAM_PROCESSOR, TRANSACTION_REPAIR, OPERATOR -> Optional.empty();
        };
    }
}
