package io.seckill.faultmatrix;

import io.seckill.config.RedisAddress;
import java.util.Map;

/** The development servers a row's faults need, each set started by {@code bin/seckill servers} with these settings. */
enum Servers {
    /** One broker, one Redis node, one MariaDB: what a single host runs. */
    SINGLE,
    /**
     * What a shop past one host runs: Redis as a cluster of 3 primaries with a replica each, and Kafka as a KRaft
     * cluster of 3 brokers, each a controller (topics 3 replicas, 2 in sync). One set for both stores' rows, for the
     * suite's clock.
     */
    CLUSTERS;

    /** local-infra's setting (docs/configuration.md), named here without its servers on this harness's class path. */
    private static final String KAFKA_BROKERS = "SECKILL_LOCAL_KAFKA_BROKERS";

    Map<String, String> settings() {
        return switch (this) {
            case SINGLE -> Map.of();
            case CLUSTERS -> Map.of(RedisAddress.TOPOLOGY, "cluster", KAFKA_BROKERS, "3");
        };
    }
}
