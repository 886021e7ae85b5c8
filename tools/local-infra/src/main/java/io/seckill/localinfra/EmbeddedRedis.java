package io.seckill.localinfra;

import io.seckill.config.Secrets;
import io.seckill.schemas.redis.RedisUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import redis.embedded.RedisServer;

/**
 * A real redis-server binary (embedded-redis's, run as a {@link RedisProcess}) on a loopback port. Scratch storage runs
 * without persistence; kept storage appends every write to a log flushed each second, as a production Redis holding
 * reservations would, so a restart keeps the sale.
 */
record EmbeddedRedis(RedisProcess server, int port, Storage storage) implements RunningServer {

    private static final String MAX_MEMORY = "1gb";

    static EmbeddedRedis start() {
        return start(Storage.scratch("seckill-redis"), FreePort.pick());
    }

    static EmbeddedRedis start(Storage storage, int port) {
        return start(storage, port, List.of());
    }

    /** @param settings more lines of redis.conf (a cluster node's) */
    static EmbeddedRedis start(Storage storage, int port, List<String> settings) {
        Path pidFile = storage.directory().resolve("redis.pid");
        if (!storage.scratch()) {
            LeftoverServer.stop(pidFile, "redis-server");
        }
        try {
            var builder = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("dir " + storage.directory())
                    .setting("pidfile " + pidFile)
                    .setting("save \"\"")
                    // Bounded, and only keys with a lifetime may go (stored replies, rate-limit counters, status
                    // copies): stock, reservations and ledgers have none, so they are never evicted.
                    .setting("maxmemory " + MAX_MEMORY)
                    .setting("maxmemory-policy volatile-lru");
            if (storage.scratch()) {
                builder.setting("appendonly no");
            } else {
                builder.setting("appendonly yes").setting("appendfsync everysec");
            }
            settings.forEach(builder::setting);
            // Each service's ACL user, as production has them (the default user stays open: harnesses and tests stage
            // with it).
            for (RedisUser user : RedisUser.values()) {
                builder.setting(user.aclLine(Secrets.DEVELOPMENT_REDIS_PASSWORD));
            }
            return new EmbeddedRedis(RedisProcess.start(builder.buildCommandArgs()), port, storage);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded redis-server", e);
        }
    }

    @Override
    public String address() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            storage.release();
        }
    }
}
