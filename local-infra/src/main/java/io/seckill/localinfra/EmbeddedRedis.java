package io.seckill.localinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import redis.embedded.RedisServer;

/** A real redis-server binary (embedded-redis) on a free loopback port, without persistence. */
record EmbeddedRedis(RedisServer server, int port) implements RunningServer {

    static EmbeddedRedis start() {
        int port = FreePort.pick();
        try {
            RedisServer server = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            server.start();
            return new EmbeddedRedis(server, port);
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
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
