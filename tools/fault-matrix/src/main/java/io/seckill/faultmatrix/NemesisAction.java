package io.seckill.faultmatrix;

import java.util.List;

/**
 * What the randomized run's nemesis can do to a live sale: pause or kill a service, pause or kill a
 * server, and set off a repair. Each is undone by the nemesis itself (a pause resumed, a killed process
 * started again) after the fault's duration, so every sale ends on a whole system.
 */
enum NemesisAction {
    /** SIGSTOP of one service's process, SIGCONT after the duration. */
    PAUSE_SERVICE,
    /** kill -9 of one service's process, started again after the duration. */
    KILL_SERVICE,
    PAUSE_KAFKA,
    PAUSE_MYSQL,
    PAUSE_REDIS,
    /** kill -9 of mysqld, which the servers start again on its data. */
    KILL_MYSQL,
    /**
     * The admin's request to rebuild every sale in Redis from MySQL, made again and again for the duration, during the
     * sale.
     */
    REQUEST_REBUILD,
    /** Redis loses everything (FLUSHALL); the reconciler rebuilds it. */
    FLUSH_REDIS,
    /**
     * kill -9 of the servers (Kafka with MySQL and Redis), started again on their data: the heaviest, off in the
     * suite's lean run.
     */
    KILL_SERVERS;

    /** The services a PAUSE_SERVICE or KILL_SERVICE picks from; none for the others. */
    List<String> targets() {
        return switch (this) {
            case PAUSE_SERVICE, KILL_SERVICE -> FaultCluster.SERVICES;
            case PAUSE_KAFKA, PAUSE_MYSQL, PAUSE_REDIS, KILL_MYSQL, REQUEST_REBUILD, FLUSH_REDIS, KILL_SERVERS ->
                List.of();
        };
    }

    /** Whether it takes the whole system down at once, so no other fault can run beside it. */
    boolean alone() {
        return switch (this) {
            case KILL_SERVERS -> true;
            case PAUSE_SERVICE,
                    KILL_SERVICE,
                    PAUSE_KAFKA,
                    PAUSE_MYSQL,
                    PAUSE_REDIS,
                    KILL_MYSQL,
                    REQUEST_REBUILD,
                    FLUSH_REDIS -> false;
        };
    }
}
