package io.seckill.localinfra;

import java.util.function.Supplier;

/** How the servers not given in the environment are started, and what the banner calls them. */
record ServerKind(String description, Supplier<RunningServer> redis, Supplier<RunningServer> kafka,
                  Supplier<MySqlServer> mysql) {

    /** Testcontainers containers, for machines with a Docker engine. */
    static final ServerKind CONTAINERS = new ServerKind("container", Containers::redis, Containers::kafka, Containers::mysql);

    /** Embedded servers on free ports, their data deleted when they stop. */
    static final ServerKind SCRATCH = new ServerKind("embedded", EmbeddedRedis::start, EmbeddedKafka::start,
            EmbeddedMariaDb::start);

    /** Embedded servers whose data and ports live in a data directory, kept across runs. */
    static ServerKind keptIn(DataDirectory data) {
        ServerPorts ports = ServerPorts.of(data.ports());
        return new ServerKind("embedded, data in " + data.root(),
                () -> EmbeddedRedis.start(Storage.kept(data.redis()), ports.redis()),
                () -> EmbeddedKafka.start(Storage.kept(data.kafka()), ports.kafka(), ports.kafkaController(), ports.kafkaBroker()),
                () -> EmbeddedMariaDb.start(Storage.kept(data.mariaDb()), ports.mysql()));
    }
}
