package io.seckill.faultmatrix;

import io.seckill.config.RedisAddress;
import java.util.Map;

/** The development servers a row's faults need, each set started by {@code bin/seckill servers} with these settings. */
enum Servers {
    /** One broker, one Redis node, one MariaDB: what a single host runs. */
    SINGLE,
    /** Redis as a cluster of 3 primaries with a replica each. */
    REPLICATED;

    Map<String, String> settings() {
        return switch (this) {
            case SINGLE -> Map.of();
            case REPLICATED -> Map.of(RedisAddress.TOPOLOGY, "cluster");
        };
    }
}
