package io.seckill.localinfra;

import io.seckill.config.RedisAddress;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** How the servers not given in the environment are started, and what the banner calls them. */
record ServerKind(
        String description,
        Function<RedisAddress.Topology, RunningServer> redis,
        IntFunction<RunningServer> kafka,
        Supplier<MySqlServer> mysql) {

    /** Testcontainers containers, for machines with a Docker engine. */
    static final ServerKind CONTAINERS = new ServerKind(
            "container",
            topology -> switch (topology) {
                case SINGLE -> Containers.redis();
                case CLUSTER ->
                    throw new IllegalStateException(
                            "a local Redis Cluster runs embedded only: set " + LocalInfrastructure.MODE + "=embedded");
            },
            brokers -> {
                if (brokers != 1) {
                    throw new IllegalStateException(
                            "a local Kafka cluster runs embedded only: set " + LocalInfrastructure.MODE + "=embedded");
                }
                return Containers.kafka();
            },
            Containers::mysql);

    /** Embedded servers on free ports, their data deleted when they stop. */
    static final ServerKind SCRATCH = new ServerKind("embedded", topology -> switch (topology) {
        case SINGLE -> EmbeddedRedis.start();
        case CLUSTER -> EmbeddedRedisCluster.start();
    }, brokers -> brokers == 1 ? EmbeddedKafka.start() : EmbeddedKafkaCluster.start(), EmbeddedMariaDb::start);

    /** Embedded servers whose data and ports live in a data directory, kept across runs. */
    static ServerKind keptIn(DataDirectory data) {
        ServerPorts ports = ServerPorts.of(data.ports());
        return new ServerKind(
                "embedded, data in " + data.root(),
                topology -> switch (topology) {
                    case SINGLE -> EmbeddedRedis.start(Storage.kept(data.redis()), ports.redis());
                    case CLUSTER -> EmbeddedRedisCluster.start(Storage.kept(data.redisCluster()));
                },
                brokers -> brokers == 1
                        ? EmbeddedKafka.start(
                                Storage.kept(data.kafka()), ports.kafka(), ports.kafkaController(), ports.kafkaBroker())
                        : EmbeddedKafkaCluster.start(Storage.kept(data.kafkaCluster())),
                () -> EmbeddedMariaDb.start(Storage.kept(data.mariaDb()), ports.mysql()));
    }
}
