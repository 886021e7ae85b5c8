package io.seckill.config;

import java.util.Optional;

/**
 * The MySQL account that changes the schema ({@code bin/seckill migrate}) and grants the application account
 * ({@link InfraAddresses}'s) the DML it needs, table by table. Services never get it: they connect as the
 * application account, which can neither change the schema nor write a table it has no business with.
 */
public record MigrationAccount(String user, String password) {

    public static final String USER = "SECKILL_MIGRATION_MYSQL_USER";
    public static final String PASSWORD = "SECKILL_MIGRATION_MYSQL_PASSWORD";

    /**
     * The account the environment names, if it names one; in production its password is checked as a secret ({@link
     * Secrets#required}).
     */
    public static Optional<MigrationAccount> from(Env env) {
        DeploymentMode mode = DeploymentMode.of(env);
        return Optional.ofNullable(env.string(USER, null)).map(user -> new MigrationAccount(user, switch (mode) {
            case PRODUCTION -> Secrets.required(env, mode, PASSWORD, InfraAddresses.MIN_MYSQL_PASSWORD_BYTES);
            case DEVELOPMENT -> env.string(PASSWORD, "");
        }));
    }

    /** Without the password. */
    @Override
    public String toString() {
        return "MigrationAccount[user=" + user + "]";
    }
}
