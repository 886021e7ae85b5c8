package io.seckill.localinfra;

import io.seckill.config.RedisAddress;
import java.util.function.Function;
import java.util.function.Supplier;

/** How the servers not given in the environment are started, and what the banner calls them. */
record ServerKind(String description, Function<RedisAddress.Topology, RunningServer> redis, Supplier<RunningServer> kafka,
                  Supplier<MySqlServer> mysql) {

    /** Testcontainers containers, for machines with a Docker engine. */
    static final ServerKind CONTAINERS = new ServerKind("container", topology -> switch (topology) {
        case SINGLE -> Containers.redis();
        case CLUSTER -> throw new IllegalStateException("a local Redis Cluster runs embedded only: set " + LocalInfrastructure.MODE + "=embedded");
    }, Containers::kafka, Containers::mysql);

    /** Embedded servers on free ports, their data deleted when they stop. */
    static final ServerKind SCRATCH = new ServerKind("embedded", topology -> switch (topology) {
        case SINGLE -> EmbeddedRedis.start();
        case CLUSTER -> EmbeddedRedisCluster.start();
    }, EmbeddedKafka::start, EmbeddedMariaDb::start);

    /** Embedded servers whose data and ports live in a data directory, kept across runs. */
    static ServerKind keptIn(DataDirectory data) {
        ServerPorts ports = ServerPorts.of(data.ports());
        return new ServerKind("embedded, data in " + data.root(),
                topology -> switch (topology) {
                    case SINGLE -> EmbeddedRedis.start(Storage.kept(data.redis()), ports.redis());
                    case CLUSTER -> EmbeddedRedisCluster.start(Storage.kept(data.redisCluster()));
                },
                () -> EmbeddedKafka.start(Storage.kept(data.kafka()), ports.kafka(), ports.kafkaController(), ports.kafkaBroker()),
                () -> EmbeddedMariaDb.start(Storage.kept(data.mariaDb()), ports.mysql()));
    }
}
