package io.seckill.schemas.redis;

import io.seckill.config.KafkaPrincipal;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Who may do what in Redis: each service that uses it logs in as an ACL user of its own, allowed only the commands its
 * code sends (the sale's Lua scripts by {@code EVALSHA}, whose inner commands Redis checks too) on the key families it
 * works on. No user may {@code FLUSHALL}, {@code CONFIG}, {@code KEYS}, {@code DEBUG} or any command not listed; the
 * ingress cannot write the reconciler's rebuild markers, the reconciler cannot touch the buyers' rate limits, replies
 * or passes. Redis 6.2's rule syntax, which later releases read alike.
 */
public enum RedisUser {
    /** Sells (the sale's keys), remembers replies, counts rate limits, spends pass challenges, asks for a rebuild. */
    INGRESS(
            "seckill-ingress",
            List.of(
                    KeyFamily.SALES,
                    KeyFamily.ORDER_STATUS,
                    KeyFamily.RATE_LIMITS,
                    KeyFamily.IDEMPOTENCY,
                    KeyFamily.SPENT_CHALLENGES,
                    KeyFamily.REBUILD_REQUEST),
            List.of()),
    /**
     * Settles, releases and returns units (the sale's keys), copies order statuses, rebuilds a lost Redis; its leak
     * sweep pages through a sale's ledger ({@code HSCAN}).
     */
    RECONCILER(
            "seckill-reconciler",
            List.of(KeyFamily.SALES, KeyFamily.ORDER_STATUS, KeyFamily.EPOCH, KeyFamily.REBUILD_REQUEST),
            List.of("+hscan"));

    /**
     * What every user may run: the connection's own commands, the server's release and memory ({@code INFO}), the
     * cluster's layout, the scripts, and the data commands the code and the scripts send.
     */
    static final List<String> COMMANDS = List.of(
            "+ping",
            "+hello",
            "+client|setinfo",
            "+client|setname",
            "+info",
            "+cluster|slots",
            "+cluster|nodes",
            "+evalsha",
            "+script|load",
            "+get",
            "+mget",
            "+set",
            "+del",
            "+exists",
            "+time",
            "+pexpire",
            "+persist",
            "+incrby",
            "+decrby",
            "+hget",
            "+hmget",
            "+hset",
            "+hdel",
            "+hexists",
            "+hgetall",
            "+hvals",
            "+hlen",
            "+hincrby",
            "+sadd",
            "+srem",
            "+sismember");

    private final String user;
    /** The families' patterns, each {@code ~pattern}, in the rules' order. */
    private final String keyPatterns;
    /** The commands only this user may run, each {@code " +command"}. */
    private final String ownCommands;

    RedisUser(String user, List<KeyFamily> families, List<String> ownCommands) {
        this.user = user;
        this.keyPatterns = families.stream().map(family -> "~" + family.pattern()).collect(Collectors.joining(" "));
        this.ownCommands = ownCommands.stream().map(command -> " " + command).collect(Collectors.joining());
    }

    /** The ACL user's name. */
    public String user() {
        return user;
    }

    /** The user a service logs in as, for the service whose Kafka principal is {@code principal}. */
    public static Optional<RedisUser> of(KafkaPrincipal principal) {
        return switch (principal) {
            case INGRESS -> Optional.of(INGRESS);
            case RECONCILER -> Optional.of(RECONCILER);
            case STREAM_PROCESSOR, DB_SINK, TRANSACTION_REPAIR, OPERATOR -> Optional.empty();
        };
    }

    /**
     * The user's rules after its password ({@code >password}, given apart so that it is never in a file or a log line
     * this project writes): its key patterns, then every command denied but those every user runs and its own.
     */
    public String rules() {
        return "resetkeys " + keyPatterns + " resetchannels -@all " + String.join(" ", COMMANDS) + ownCommands;
    }

    /** An ACL file's (or redis.conf's) line for the user, logging in with {@code password}. */
    public String aclLine(String password) {
        return "user " + user + " reset on >" + password + " " + rules();
    }

    /** The key families, by the prefixes the stores write ({@code redis-state}'s key layouts). */
    enum KeyFamily {
        /**
         * A sale's every key, in its home slot and its buckets: {@code seckill:{sku:N}:...}, {@code
         * seckill:{sku:N:bBofK.n}:...}.
         */
        SALES("seckill:{sku:*"),
        /** The copy of an order's status the buyers' reads are answered from. */
        ORDER_STATUS("seckill:order:*"),
        RATE_LIMITS("seckill:ratelimit:*"),
        IDEMPOTENCY("seckill:idempotency:*"),
        SPENT_CHALLENGES("seckill:pass:*"),
        /** Each primary's marker of the state it was given, and its rebuild lock. */
        EPOCH("seckill:{epoch-*"),
        /** An operator's request to rebuild every sale. */
        REBUILD_REQUEST("seckill:epoch:rebuild-requested");

        private final String pattern;

        KeyFamily(String pattern) {
            this.pattern = pattern;
        }

        String pattern() {
            return pattern;
        }
    }
}
